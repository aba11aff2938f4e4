/**
 * What every {@code locus} command is built from: the {@link org.locus.cli.command.Command}
 * interface, groups of subcommands ({@link org.locus.cli.command.CommandGroup}), option parsing
 * ({@link org.locus.cli.command.OptionsCommand}, {@link
 * org.locus.cli.command.KeyValueOption}), where a command prints ({@link
 * org.locus.cli.command.Console}), its two kinds of failure ({@link
 * org.locus.cli.command.UsageException}, exit code 2; {@link
 * org.locus.cli.command.LocusException}, exit code 1), and what the commands that run Hadoop
 * share: the cluster's client configuration ({@link org.locus.cli.command.ClientConfiguration},
 * {@code --conf}) and the file Hadoop's own logging goes to ({@link
 * org.locus.cli.command.HadoopLogFile}).
 *
 * <p>It imports no command package: each command package ({@code bench}, {@code cluster},
 * {@code kat}, ...) builds on it, and only {@link org.locus.cli.Locus}, the entry point,
 * imports the command packages to register them. {@code CliPackagesHaveNoCycleTest} checks
 * both.
 */
package org.locus.cli.command;
