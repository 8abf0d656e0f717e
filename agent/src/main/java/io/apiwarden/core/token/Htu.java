package io.apiwarden.core.token;

import java.net.URI;
import java.util.Locale;

/**
 * The {@code htu} of a DPoP proof (RFC 9449 section 4.2): the request's URI without query and fragment, with scheme
 * and host in lower case and the scheme's default port left out, so that it matches the URI the server compares it
 * with after the same normalisation (RFC 3986 section 6.2.2/6.2.3).
 */
public final class Htu {
    private Htu() {}

    public static String of(URI uri) {
        return of(uri.getScheme(), uri.getHost(), uri.getPort(), uri.getRawPath());
    }

    /**
     * @param port the port, -1 or the scheme's default for none
     * @param rawPath the path as sent, without query; empty stands for {@code /}
     */
    public static String of(String scheme, String host, int port, String rawPath) {
        String s = scheme.toLowerCase(Locale.ROOT);
        boolean defaultPort = port == -1 || (s.equals("https") && port == 443) || (s.equals("http") && port == 80);
        StringBuilder b = new StringBuilder(s.length() + host.length() + 16 + (rawPath == null ? 1 : rawPath.length()))
                .append(s)
                .append("://")
                .append(host.toLowerCase(Locale.ROOT));
        if (!defaultPort) {
            b.append(':').append(port);
        }
        return b.append(rawPath == null || rawPath.isEmpty() ? "/" : rawPath).toString();
    }
}
