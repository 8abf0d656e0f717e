package io.apiwarden.core.log;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Makes text that came from the network (an OAuth error code or description, a header value, a
 * snippet of a body) safe to put into a log line, an exception message or a span attribute.
 *
 * <ul>
 *   <li>Every occurrence of a secret the caller holds (a refresh token, a client secret, an
 *       access token), and of every secret the agent holds ({@link KnownSecrets}), becomes
 *       {@link #REDACTED}: a server may echo what it was sent.
 *   <li>Control characters become visible escapes ({@code \n}, {@code \r}, {@code \t},
 *       {@code \}{@code u2028}): C0 and C1 controls, line and paragraph separators, bidi and other
 *       invisible format characters, and lone surrogates. The result is one line that reads as
 *       what it is, so a server cannot forge a log line of the agent's or hide text.
 *   <li>At most {@link #MAX_LENGTH} characters are kept, then {@link #TRUNCATED}.
 * </ul>
 *
 * <p>Give it whole values: secrets are matched whole, so text that the caller cut in the middle
 * of a secret could end in the secret's first characters.
 */
public final class ServerText {
    /**
     * OAuth error codes are one word and descriptions a sentence (RFC 6749 section 5.2); 256
     * characters hold either while one hostile answer can add no more than a short line to the
     * app's log or a span.
     */
    public static final int MAX_LENGTH = 256;
    /** What stands in place of a secret. */
    public static final String REDACTED = "<redacted>";
    /** What ends a text that was cut at {@link #MAX_LENGTH}; ASCII, since standard error may not be UTF-8. */
    public static final String TRUNCATED = "...";

    private ServerText() {}

    /** {@code text} made safe, with every occurrence of each of {@code secrets} redacted; "" for null. */
    public static String of(String text, String... secrets) {
        return of(text, Arrays.asList(secrets));
    }

    /** {@code text} made safe, with every occurrence of each of {@code secrets} redacted; "" for null. */
    public static String of(String text, Collection<String> secrets) {
        if (text == null) {
            return "";
        }
        List<String> longestFirst = usable(secrets, KnownSecrets.all());
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_LENGTH) + 16);
        int i = 0;
        while (i < text.length()) {
            String secret = secretAt(text, i, longestFirst);
            String piece;
            int consumed;
            if (secret != null) {
                piece = REDACTED;
                consumed = secret.length();
            } else {
                int cp = text.codePointAt(i);
                consumed = Character.charCount(cp);
                piece = isHidden(cp) ? escape(cp) : text.substring(i, i + consumed);
            }
            // Pieces are never split: half an escape or half a surrogate pair would be new damage.
            if (out.length() + piece.length() > MAX_LENGTH) {
                return out.append(TRUNCATED).toString();
            }
            out.append(piece);
            i += consumed;
        }
        return out.toString();
    }

    /**
     * True when {@link #of(String, String...) of(text)} would give {@code text} back unchanged:
     * short enough, nothing hidden, no secret the agent holds. Allocates nothing, for the per-call
     * path, where nearly every header value is clean.
     */
    public static boolean isClean(String text) {
        if (text.length() > MAX_LENGTH || KnownSecrets.scrub(text) != text) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (isHidden(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Non-empty secrets, the caller's and every one the agent holds ({@link KnownSecrets}),
     * longest first, so that a secret containing another is redacted whole.
     */
    private static List<String> usable(Collection<String> secrets, String[] known) {
        List<String> list = new ArrayList<>(secrets.size() + known.length);
        for (String s : secrets) {
            if (s != null && !s.isEmpty()) {
                list.add(s);
            }
        }
        list.addAll(Arrays.asList(known));
        list.sort((a, b) -> Integer.compare(b.length(), a.length()));
        return list;
    }

    private static String secretAt(String text, int i, List<String> longestFirst) {
        for (String s : longestFirst) {
            if (text.startsWith(s, i)) {
                return s;
            }
        }
        return null;
    }

    /** Characters that end or reorder a line, or that do not show. */
    static boolean isHidden(int cp) {
        switch (Character.getType(cp)) {
            case Character.CONTROL: // C0, DEL, C1 (NEL among them)
            case Character.FORMAT: // bidi controls, zero-width characters, tag characters
            case Character.LINE_SEPARATOR: // U+2028
            case Character.PARAGRAPH_SEPARATOR: // U+2029
            case Character.SURROGATE: // a lone half of a pair
                return true;
            default:
                return false;
        }
    }

    private static String escape(int cp) {
        switch (cp) {
            case '\n':
                return "\\n";
            case '\r':
                return "\\r";
            case '\t':
                return "\\t";
            default:
                return cp > 0xFFFF ? String.format("\\u{%X}", cp) : String.format("\\u%04X", cp);
        }
    }
}
