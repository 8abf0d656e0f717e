package io.apiwarden.core.token;

/** What a token may contain to go into a header: printable ASCII without spaces (RFC 6750 b64token is a subset). */
public final class TokenText {
    private TokenText() {
    }

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
}
