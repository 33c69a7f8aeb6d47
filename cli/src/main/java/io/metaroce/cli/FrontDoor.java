package io.metaroce.cli;

/**
 * The jar's entry point. {@code metaroce --version} (and {@code -V} on the top command) is answered here, before
 * picocli is loaded: picocli's Java 5 class files cannot be stored in the JDK's AOT cache, so loading it costs
 * about 180 classes read and verified at every start, which is most of the time of a version query. Everything
 * else goes to {@link Main}, which prints the same version line through picocli for every subcommand.
 */
public final class FrontDoor {
    private FrontDoor() {}

    public static void main(String[] args) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            // A compile-time constant: reading it loads no class of the command line.
            System.out.println(StandardOptions.VERSION);
            System.out.flush();
            return;
        }
        Main.main(args);
    }
}
