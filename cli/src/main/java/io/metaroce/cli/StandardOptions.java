package io.metaroce.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The options every subcommand shares: {@code -h}/{@code --help} and {@code --version}. {@code -V} is left out
 * on purpose: tshark users type it for verbose (dissect's field tree), never for the version.
 */
final class StandardOptions {
    static final String VERSION = "metaroce 0.1.0 (MetaRoCE v1 draft r2)";

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Option(names = "--version", versionHelp = true, description = "Print the version and exit.")
    boolean version;

    /** Version text for picocli's versionHelp (subcommands and the top command). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() { return new String[] {VERSION}; }
    }

    /**
     * {@code -V} on a command without a verbose mode: a usage error that says where verbose output is, instead of
     * silently doing nothing (or printing the version, which is not what a tshark user means).
     */
    static final class NoVerbose {
        @Spec(Spec.Target.MIXEE)
        CommandSpec mixee;

        @Option(names = "-V", hidden = true)
        void verbose(boolean v) {
            throw new ParameterException(mixee.commandLine(), "-V (verbose) has no meaning for " + mixee.name()
                    + ": each frame's field tree is 'metaroce dissect -r FILE -V', the version 'metaroce --version'");
        }
    }
}
