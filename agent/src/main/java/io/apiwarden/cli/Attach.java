package io.apiwarden.cli;

import com.sun.tools.attach.VirtualMachine;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Loads the agent into a running JVM. Properties given as {@code key=value} become the agent's
 * configuration in that JVM, before its own system properties and environment.
 */
final class Attach {
    private Attach() {}

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || !args[0].matches("\\d+")) {
            err.println("usage: java -jar apiwarden-agent.jar attach <pid> [apiwarden.property=value ...]");
            return 2;
        }
        StringBuilder options = new StringBuilder();
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            int eq = a.indexOf('=');
            if (eq <= 0 || a.indexOf(',') >= 0) {
                err.println(
                        "'" + a
                                + "' is not property=value (and values cannot hold commas here): e.g. apiwarden.base-url=https://api.example.com/v1");
                return 2;
            }
            options.append(options.length() == 0 ? "" : ",").append(a.startsWith("apiwarden.") ? a : "apiwarden." + a);
        }
        Path jar;
        try {
            jar = Paths.get(Attach.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException | RuntimeException e) {
            err.println(
                    "cannot find the agent jar this command runs from: run it as java -jar apiwarden-agent.jar attach ...");
            return 2;
        }
        try {
            VirtualMachine vm = VirtualMachine.attach(args[0]);
            try {
                vm.loadAgent(jar.toString(), options.toString());
            } finally {
                vm.detach();
            }
        } catch (Exception | LinkageError e) {
            err.println("could not load the agent into JVM " + args[0] + ": "
                    + e.getClass().getSimpleName() + ": " + e.getMessage()
                    + "\n  run this with a JDK (not a JRE), as the same user as the target JVM; a JVM started with"
                    + " -XX:+DisableAttachMechanism cannot be attached to");
            return 1;
        }
        out.println("API Warden loaded into JVM " + args[0] + ". It manages clients built from now on;"
                + " clients the app built before stay unmanaged (see its log for the agent's start line).");
        return 0;
    }
}
