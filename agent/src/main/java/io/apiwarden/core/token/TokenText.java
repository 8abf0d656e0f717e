package io.apiwarden.core.token;

/**
 * What tokens and client credentials may contain. Tokens, configured or received, access or
 * refresh, must be an RFC 6750 section 2.1 {@code b64token}:
 * {@code 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="}. What is wrong is said in
 * words that never quote the value.
 */
public final class TokenText {
    /**
     * The longest access token the agent sends. It travels in one header, and servers cap a
     * request's header section by default at 8 to 16 KiB (Tomcat, Jetty and nginx at 8 KiB,
     * Node.js at 16 KiB): a token beyond the largest of these defaults reaches no server as it
     * comes, and bounds what a token response can make every call carry.
     */
    public static final int MAX_ACCESS_TOKEN_LENGTH = 16 * 1024;
    /** The alphabet of a bearer token, for messages that say what to do. */
    public static final String ALPHABET = "letters, digits, - . _ ~ + / and trailing =";

    private TokenText() {}

    /**
     * Whether {@code s} can go into a header as it is: printable ASCII without spaces. What
     * client ids and secrets are held to (they are form-encoded before they are sent).
     */
    public static boolean isValid(String s) {
        if (s == null || s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code s} is an RFC 6750 {@code b64token}. */
    public static boolean isToken(String s) {
        return s != null && flaw(s) == null;
    }

    /**
     * Why {@code s} is not an access token the agent will send (not a {@code b64token}, or longer
     * than {@link #MAX_ACCESS_TOKEN_LENGTH}), as a phrase such as "contains quotes"; null when
     * it is one.
     */
    public static String accessTokenFlaw(String s) {
        if (s != null && s.length() > MAX_ACCESS_TOKEN_LENGTH) {
            return "is " + s.length() + " characters long, over the " + MAX_ACCESS_TOKEN_LENGTH / 1024
                    + " KiB that servers accept in a request header";
        }
        return flaw(s);
    }

    /**
     * Why {@code s} is not a {@code b64token}, as a phrase such as "contains quotes"; null when
     * it is one. When several things are wrong, the one most likely to explain how it happened
     * is named (a line break or quotes copied with the token, then the rest).
     */
    public static String flaw(String s) {
        if (s == null || s.isEmpty()) {
            return "is empty";
        }
        boolean spaceOrControl = false;
        boolean quote = false;
        boolean nonAscii = false;
        boolean otherPunctuation = false;
        boolean equalsInside = false;
        int padding = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '=') {
                if (padding < 0) {
                    padding = i;
                }
            } else {
                if (padding >= 0) {
                    equalsInside = true;
                }
                if (c <= 0x20 || c == 0x7f) {
                    spaceOrControl = true;
                } else if (c == '"' || c == '\'') {
                    quote = true;
                } else if (c >= 0x80) {
                    nonAscii = true;
                } else if (!isTokenChar(c)) {
                    otherPunctuation = true;
                }
            }
        }
        if (spaceOrControl) {
            return "contains spaces or control characters";
        }
        if (quote) {
            return "contains quotes";
        }
        if (nonAscii) {
            return "contains characters outside ASCII";
        }
        if (otherPunctuation) {
            return "contains punctuation other than - . _ ~ + /";
        }
        if (padding == 0) {
            return "starts with '='";
        }
        if (equalsInside) {
            return "has '=' before its end (only trailing padding may be '=')";
        }
        return null;
    }

    private static boolean isTokenChar(char c) {
        return (c >= 'A' && c <= 'Z')
                || (c >= 'a' && c <= 'z')
                || (c >= '0' && c <= '9')
                || c == '-'
                || c == '.'
                || c == '_'
                || c == '~'
                || c == '+'
                || c == '/';
    }
}
