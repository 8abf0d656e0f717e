package io.apiwarden.cli;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * {@code java -jar apiwarden-agent.jar [help | doctor | attach <pid> [property=value...] | version]}.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        String command = args.length == 0 ? "help" : args[0];
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        switch (command) {
            case "help":
            case "--help":
            case "-h":
                out.print(Help.text());
                return 0;
            case "version":
            case "--version":
                out.println("API Warden " + version());
                return 0;
            case "doctor":
                return new Doctor(out, err).run();
            case "attach":
                return Attach.run(rest, out, err);
            default:
                err.println("unknown command '" + command + "': use help, doctor, attach <pid> or version");
                return 2;
        }
    }

    static String version() {
        String v = Main.class.getPackage().getImplementationVersion();
        return v == null ? "(development build)" : v;
    }
}
