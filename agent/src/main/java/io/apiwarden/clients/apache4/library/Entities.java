package io.apiwarden.clients.apache4.library;

import io.apiwarden.core.engine.RecordedBody;
import io.apiwarden.core.engine.RecordedStreams;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.http.HttpEntity;
import org.apache.http.entity.HttpEntityWrapper;

/**
 * The entities the agent puts in Apache HttpClient 4 messages. Request entities the client cannot send
 * twice (a stream) are recorded as the first attempt writes them and written again from the recording
 * on a resend; both keep the app's content type, encoding, length and chunking and say they are not
 * repeatable, so the client never repeats them on its own. A response body the agent peeked at is given
 * back whole.
 */
final class Entities {
    private Entities() {}

    /** The app's entity, written as it writes itself, and recorded on the way. */
    static HttpEntity recording(HttpEntity app, RecordedBody recording) {
        return new HttpEntityWrapper(app) {
            @Override
            public boolean isRepeatable() {
                return false;
            }

            @Override
            public void writeTo(OutputStream out) throws IOException {
                RecordedStreams.record(super::writeTo, out, recording);
            }
        };
    }

    /** The recorded entity, written again. */
    static HttpEntity replay(HttpEntity app, RecordedBody recording) {
        return new HttpEntityWrapper(app) {
            @Override
            public boolean isRepeatable() {
                return false;
            }

            @Override
            public boolean isStreaming() {
                return false;
            }

            @Override
            public InputStream getContent() throws IOException {
                return RecordedStreams.content(recording);
            }

            @Override
            public void writeTo(OutputStream out) throws IOException {
                RecordedStreams.replay(recording, out);
            }
        };
    }

    /**
     * A response body whose first bytes the agent has read to classify it, given back {@code whole}
     * ({@link io.apiwarden.core.engine.BodyPeek#peek}).
     */
    static HttpEntity peeked(HttpEntity original, InputStream whole) {
        return new HttpEntityWrapper(original) {
            @Override
            public InputStream getContent() {
                return whole;
            }

            @Override
            public void writeTo(OutputStream out) throws IOException {
                try (InputStream in = whole) {
                    in.transferTo(out);
                }
            }

            @Override
            public boolean isRepeatable() {
                return false;
            }

            @Override
            public boolean isStreaming() {
                return true;
            }
        };
    }
}
