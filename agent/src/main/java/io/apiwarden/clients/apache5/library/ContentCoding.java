package io.apiwarden.clients.apache5.library;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipException;

/**
 * Decodes the prefix of a compressed error body, for classification only. The async client decodes
 * bodies above the agent's handler (its decompression comes before its retry handler, and the agent
 * sits below that), so the bytes the handler holds are as the server sent them; the app still gets
 * them that way, and decodes them itself.
 */
final class ContentCoding {
    private ContentCoding() {}

    /**
     * At most {@code limit} bytes of the body {@code raw} starts, decoded from {@code encoding}
     * ({@code gzip}, {@code x-gzip}, {@code deflate}; none or {@code identity}: as it is). A prefix
     * cut short by the bound decodes as far as it goes.
     *
     * @throws IOException for another coding, or bytes that are not in the coding named
     */
    static byte[] decodedPrefix(byte[] raw, String encoding, int limit) throws IOException {
        if (encoding == null) {
            return raw;
        }
        String coding = encoding.trim().toLowerCase(Locale.ROOT);
        switch (coding) {
            case "":
            case "identity":
                return raw;
            case "gzip":
            case "x-gzip":
                return readUpTo(new GZIPInputStream(new ByteArrayInputStream(raw)), limit);
            case "deflate":
                try {
                    return readUpTo(new InflaterInputStream(new ByteArrayInputStream(raw)), limit);
                } catch (ZipException e) {
                    // Servers send raw deflate too, without the zlib header.
                    return readUpTo(new InflaterInputStream(new ByteArrayInputStream(raw), new Inflater(true)), limit);
                }
            default:
                throw new IOException("a body in " + coding + " is not decoded by the agent");
        }
    }

    private static byte[] readUpTo(InputStream in, int limit) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try (InputStream decoded = in) {
            while (out.size() < limit) {
                int n = decoded.read(buffer, 0, Math.min(buffer.length, limit - out.size()));
                if (n < 0) {
                    break;
                }
                out.write(buffer, 0, n);
            }
        } catch (EOFException cutShort) {
            // The held prefix ended inside the compressed stream: what was decoded is the prefix.
        }
        return out.toByteArray();
    }
}
