package io.apiwarden.telemetry;

/**
 * {@code url.full} as the semantic conventions ask: query values replaced, so tokens or personal
 * data passed in a query never reach a tracing backend. Names stay, to keep the URL readable.
 */
final class UrlRedaction {
    static final String REDACTED = "REDACTED";

    private UrlRedaction() {}

    static String redact(String fullUrl) {
        String url = withoutUserInfo(fullUrl);
        int q = url.indexOf('?');
        if (q < 0) {
            return stripFragment(url);
        }
        int hash = url.indexOf('#', q);
        String query = url.substring(q + 1, hash < 0 ? url.length() : hash);
        StringBuilder out = new StringBuilder(url.length()).append(url, 0, q + 1);
        String[] pairs = query.split("&", -1);
        for (int i = 0; i < pairs.length; i++) {
            if (i > 0) {
                out.append('&');
            }
            int eq = pairs[i].indexOf('=');
            out.append(eq < 0 ? pairs[i] : pairs[i].substring(0, eq + 1) + REDACTED);
        }
        return out.toString();
    }

    /** {@code https://user:pw@host/...} becomes {@code https://host/...}: credentials never reach a span. */
    private static String withoutUserInfo(String url) {
        int scheme = url.indexOf("://");
        if (scheme < 0) {
            return url;
        }
        int authorityEnd = url.length();
        for (char c : new char[] {'/', '?', '#'}) {
            int i = url.indexOf(c, scheme + 3);
            if (i >= 0 && i < authorityEnd) {
                authorityEnd = i;
            }
        }
        int at = url.lastIndexOf('@', authorityEnd - 1);
        return at > scheme ? url.substring(0, scheme + 3) + url.substring(at + 1) : url;
    }

    private static String stripFragment(String url) {
        int hash = url.indexOf('#');
        return hash < 0 ? url : url.substring(0, hash);
    }
}
