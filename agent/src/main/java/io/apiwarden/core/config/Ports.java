package io.apiwarden.core.config;

/**
 * The port of a configured URL, read from its text: {@link java.net.URI} takes any digits as a port
 * (99999), and a port it cannot read (99999999999, 8o80) leaves the URL without a host, so the port
 * is checked on its own first and named in the problem.
 */
public final class Ports {
    /** The highest TCP port: ports are 16 bits. */
    public static final int MAX = 65_535;

    private Ports() {}

    /**
     * What follows the host's colon in a raw authority ({@code user:pw@host:port}, {@code [::1]:port}),
     * or null when there is no port. Never any of the user information, which may hold a password.
     */
    public static String text(String rawAuthority) {
        if (rawAuthority == null) {
            return null;
        }
        String hostAndPort = rawAuthority.substring(rawAuthority.lastIndexOf('@') + 1);
        int colon = hostAndPort.indexOf(':', hostAndPort.startsWith("[") ? Math.max(hostAndPort.indexOf(']'), 0) : 0);
        return colon < 0 || colon == hostAndPort.length() - 1 ? null : hostAndPort.substring(colon + 1);
    }

    /** Whether {@code text} is a port a server can listen on: 1 to {@link #MAX}. */
    public static boolean isPort(String text) {
        return text.matches("[0-9]{1,5}") && Integer.parseInt(text) >= 1 && Integer.parseInt(text) <= MAX;
    }
}
