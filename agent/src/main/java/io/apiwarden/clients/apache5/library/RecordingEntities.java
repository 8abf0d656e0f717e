package io.apiwarden.clients.apache5.library;

import io.apiwarden.core.engine.RecordedBody;
import io.apiwarden.core.engine.RecordedStreams;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.HttpEntityWrapper;

/**
 * Entities around a request entity of the app's that the client cannot send twice (a stream, what
 * Spring's streaming bodies become): the first attempt's bytes go through a tee into the call's
 * {@link RecordedBody} as the client writes them; a resend writes the recording. Both keep the app's
 * content type, encoding, length and chunking, so a declared length stays a {@code Content-Length}
 * and an unknown one stays chunked, and both say they are not repeatable, so the client never
 * repeats them on its own.
 */
final class RecordingEntities {
    private RecordingEntities() {}

    /** The app's entity, written as it writes itself, and recorded on the way. */
    static HttpEntity recording(HttpEntity app, RecordedBody recording) {
        return new Teed(app, recording);
    }

    /** The recorded entity, written again. */
    static HttpEntity replay(HttpEntity app, RecordedBody recording) {
        return new Replayed(app, recording);
    }

    private static final class Teed extends HttpEntityWrapper {
        private final RecordedBody recording;

        Teed(HttpEntity app, RecordedBody recording) {
            super(app);
            this.recording = recording;
        }

        @Override
        public boolean isRepeatable() {
            return false;
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
            RecordedStreams.record(super::writeTo, out, recording);
        }
    }

    private static final class Replayed extends HttpEntityWrapper {
        private final RecordedBody recording;

        Replayed(HttpEntity app, RecordedBody recording) {
            super(app);
            this.recording = recording;
        }

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
    }
}
