package io.apiwarden.core.scope;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A request path as a server may resolve it, for deciding whether the token may go with it.
 *
 * <p>Servers and path-routing proxies differ: most remove dot segments (RFC 3986 section 5.2.4),
 * some merge repeated slashes first (nginx), some treat {@code ..;x} as {@code ..} (Tomcat), and
 * some decode {@code %2e}, {@code %2f} or {@code %5c} before routing. The scope check takes
 * every reading: a path is under the base only if it stays there however it is resolved, and
 * a path with an encoded dot, slash or backslash is never in scope at all.
 */
final class RequestPath {
    private RequestPath() {}

    /**
     * The cheap check every managed call pays: true when the raw path holds nothing a server
     * could resolve differently from how it reads (no dot segment candidate, no percent sign).
     */
    static boolean isPlain(String rawPath) {
        char previous = 0;
        for (int i = 0; i < rawPath.length(); i++) {
            char c = rawPath.charAt(i);
            if (c == '%' || c == '\\' || (c == '.' && previous == '/')) {
                return false;
            }
            previous = c;
        }
        return true;
    }

    /** True when the path holds an encoded {@code .}, {@code /} or {@code \}: how a server decodes them is not knowable. */
    static boolean hasEncodedDotOrSlash(String rawPath) {
        if (rawPath.indexOf('\\') >= 0) {
            return true;
        }
        for (int at = rawPath.indexOf('%'); at >= 0 && at + 2 < rawPath.length(); at = rawPath.indexOf('%', at + 1)) {
            char hi = rawPath.charAt(at + 1);
            char lo = Character.toLowerCase(rawPath.charAt(at + 2));
            if ((hi == '2' && (lo == 'e' || lo == 'f')) || (hi == '5' && lo == 'c')) {
                return true;
            }
        }
        return false;
    }

    /**
     * The readings of {@code rawPath} that servers use: dot segments removed as RFC 3986 says,
     * and removed after repeated slashes were merged.
     */
    static String[] readings(String rawPath) {
        return new String[] {removeDotSegments(rawPath), removeDotSegments(mergeSlashes(rawPath))};
    }

    /** RFC 3986 section 5.2.4, with a segment whose part before {@code ;} is a dot segment counted as one. */
    static String removeDotSegments(String path) {
        boolean absolute = path.startsWith("/");
        String[] segments = (absolute ? path.substring(1) : path).split("/", -1);
        Deque<String> kept = new ArrayDeque<>(segments.length);
        boolean endsInDirectory = false;
        for (String segment : segments) {
            int semicolon = segment.indexOf(';');
            String name = semicolon < 0 ? segment : segment.substring(0, semicolon);
            if (name.equals("..")) {
                kept.pollLast();
                endsInDirectory = true;
            } else if (name.equals(".")) {
                endsInDirectory = true;
            } else {
                kept.addLast(segment);
                endsInDirectory = false;
            }
        }
        StringBuilder out = new StringBuilder(path.length());
        for (String segment : kept) {
            if (out.length() > 0 || absolute) {
                out.append('/');
            }
            out.append(segment);
        }
        if (endsInDirectory && (out.length() == 0 || out.charAt(out.length() - 1) != '/')) {
            out.append('/');
        }
        return out.toString();
    }

    private static String mergeSlashes(String path) {
        StringBuilder out = new StringBuilder(path.length());
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c != '/' || out.length() == 0 || out.charAt(out.length() - 1) != '/') {
                out.append(c);
            }
        }
        return out.toString();
    }
}
