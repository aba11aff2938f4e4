// SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only
/*
 * status.c - the text of the virtual attributes (layouts in status.h).
 */
#include "status.h"

static const char *const policy_names[] = {
	[MORPH_LAAS_ADAPTIVE] = "adaptive",
	[MORPH_LAAS_STRIPE] = "stripe",
	[MORPH_LAAS_MIRROR] = "mirror",
};

/* text being written into a buffer of @len bytes, always NUL-terminated */
struct text {
	char *out;
	u32 len, at;
};

static void put_char(struct text *t, char c)
{
	if (t->at + 1 < t->len) {
		t->out[t->at++] = c;
		t->out[t->at] = 0;
	}
}

static void put_str(struct text *t, const char *s)
{
	while (*s)
		put_char(t, *s++);
}

static void put_dec(struct text *t, u64 v)
{
	char d[20];
	int n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		put_char(t, d[--n]);
}

/* @v in lower-case hex, at least @width digits */
static void put_hex(struct text *t, u64 v, int width)
{
	static const char hex[] = "0123456789abcdef";
	int n = 16;

	while (n > width && !((v >> (4 * (n - 1))) & 0xf))
		n--;
	while (n--)
		put_char(t, hex[(v >> (4 * n)) & 0xf]);
}

/* "0,3"; @none for an empty mask */
static void put_devs(struct text *t, u32 mask, const char *none)
{
	u32 d;
	int first = 1;

	for (d = 0; d < MORPH_MAX_DEVICES; d++)
		if (mask & (1u << d)) {
			if (!first)
				put_char(t, ',');
			put_dec(t, d);
			first = 0;
		}
	if (first)
		put_str(t, none);
}

static void put_field(struct text *t, const char *key, u64 v)
{
	put_char(t, ' ');
	put_str(t, key);
	put_char(t, '=');
	put_dec(t, v);
}

static void start(struct text *t, char *out, u32 len)
{
	t->out = out;
	t->len = len;
	t->at = 0;
	if (len)
		out[0] = 0;
}

int morph_replicas_parse(const char *value, size_t size, u32 ndev,
			 u32 *copies)
{
	size_t i = 0;
	u32 n = 0;

	if (size && value[size - 1] == '\n')
		size--;
	if (i < size && value[i] == '+')
		i++;
	if (i == size)
		return -MORPH_ERR_RANGE;
	for (; i < size; i++) {
		if (value[i] < '0' || value[i] > '9' || n > MORPH_MAX_DEVICES)
			return -MORPH_ERR_RANGE;
		n = n * 10 + (u32)(value[i] - '0');
	}
	if (n < 1 || n > ndev)
		return -MORPH_ERR_RANGE;
	*copies = n;
	return 0;
}

u32 morph_file_status_format(char *out, u32 len,
			     const struct morph_file_status *fs)
{
	struct text t;

	start(&t, out, len);
	put_str(&t, "wanted=");
	put_dec(&t, fs->st.wanted);
	put_field(&t, "copies", morph_popcount(fs->copies));
	put_field(&t, "master", fs->st.master);
	put_str(&t, " devices=");
	put_devs(&t, fs->copies, "");
	put_str(&t, " stale=0x");
	put_hex(&t, fs->st.stale, 1);
	put_field(&t, "reads", fs->reads);
	put_field(&t, "writes", fs->writes);
	put_str(&t, " id=");
	put_hex(&t, fs->st.id, 16);
	if (fs->state_bad)
		put_str(&t, " state=unreadable");
	if (fs->lost) {
		put_str(&t, " lost=");
		put_devs(&t, fs->lost, "-");
	}
	return t.at;
}

u32 morph_volume_status_format(char *out, u32 len,
			       const struct morph_volume_status *vs)
{
	struct text t;

	start(&t, out, len);
	put_str(&t, "version=");
	put_dec(&t, vs->version);
	put_field(&t, "devices", vs->ndev);
	if (vs->degraded_mode) {
		put_str(&t, " lost=");
		put_devs(&t, vs->lost, "-");
		put_str(&t, " behind=");
		put_devs(&t, vs->behind, "-");
	}
	put_field(&t, "load", vs->load);
	put_field(&t, "threshold", vs->threshold);
	put_str(&t, vs->striping ? " mode=stripe" : " mode=mirror");
	put_str(&t, " policy=");
	put_str(&t, policy_names[vs->policy]);
	put_field(&t, "chunk", vs->chunk);
	put_field(&t, "window_ms", vs->window_ms);
	put_field(&t, "pending", vs->pending);
	put_char(&t, '\n');
	return t.at;
}

u32 morph_device_status_format(char *out, u32 len,
			       const struct morph_volume_status *vs,
			       const struct morph_device_status *ds)
{
	u32 bit = 1u << ds->dev;
	struct text t;

	start(&t, out, len);
	put_str(&t, "dev=");
	put_dec(&t, ds->dev);
	put_str(&t, " path=");
	put_str(&t, ds->path);
	put_field(&t, "load", ds->load);
	put_field(&t, "split", ds->split);
	put_str(&t, vs->striping ? " mode=stripe" : " mode=mirror");
	put_field(&t, "free", ds->free);
	if (vs->degraded_mode)
		put_str(&t, vs->lost & bit ? " state=lost" :
			    vs->behind & bit ? " state=behind" : " state=up");
	put_char(&t, '\n');
	return t.at;
}
