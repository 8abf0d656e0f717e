package io.apiwarden.clients.apache5.library;

import java.util.ArrayList;
import java.util.List;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpMessage;
import org.apache.hc.core5.http.ProtocolVersion;

/** Reading Apache HttpClient 5 messages the way the engine asks. */
final class Messages {
    private Messages() {}

    /** The values of header {@code name} (any case), never null. */
    static List<String> values(HttpMessage message, String name) {
        Header[] headers = message.getHeaders(name);
        if (headers.length == 0) {
            return List.of();
        }
        List<String> values = new ArrayList<>(headers.length);
        for (Header h : headers) {
            values.add(h.getValue());
        }
        return values;
    }

    /** The first value of header {@code name}, or null. */
    static String first(HttpMessage message, String name) {
        Header h = message.getFirstHeader(name);
        return h == null ? null : h.getValue();
    }

    /** {@code 1.0}, {@code 1.1} or {@code 2}, as the engine's telemetry names versions. */
    static String protocolVersion(ProtocolVersion version) {
        if (version == null) {
            return "1.1";
        }
        if (version.getMajor() >= 2) {
            return "2";
        }
        return version.getMinor() == 0 ? "1.0" : "1.1";
    }
}
