package io.apiwarden.core.token.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;

/**
 * The {@code .<name>.lease} file: who may refresh, from which host and process, until when.
 * One line: {@code owner host pid until-epoch-ms}. Read and written only under the store's lock.
 * The time is the holder's claim: how long a lease may stand is the reader's to say
 * ({@link FileTokenStore}), and a file that is not a regular one counts as no lease ({@link SideFile}).
 */
final class LeaseFile {
    private LeaseFile() {}

    static final class Holder {
        final String owner;
        final String host;
        final long pid;
        final Instant until;

        Holder(String owner, String host, long pid, Instant until) {
            this.owner = owner;
            this.host = host;
            this.pid = pid;
            this.until = until;
        }

        /**
         * Whether the lease still stands: not run out, and, when the holder is on this host, its
         * process still alive (a holder killed with kill -9 frees it at once). A holder on another
         * host (or in another container, whose process IDs mean nothing here) is trusted until
         * its time runs out.
         */
        boolean holds(Instant now, String thisHost) {
            if (!now.isBefore(until)) {
                return false;
            }
            if (host.equals(thisHost) && pid != ProcessHandle.current().pid()) {
                return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
            }
            return true;
        }
    }

    static Holder read(Path file) throws IOException {
        String line = SideFile.read(file);
        if (line == null) {
            return null;
        }
        String[] parts = line.split(" ");
        if (parts.length != 4) {
            return null;
        }
        try {
            long pid = Long.parseLong(parts[2]);
            return pid < 1 ? null : new Holder(parts[0], parts[1], pid, Instant.ofEpochMilli(Long.parseLong(parts[3])));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static void write(AtomicFile file, Holder holder) throws IOException {
        String line = holder.owner + " " + holder.host + " " + holder.pid + " " + holder.until.toEpochMilli() + "\n";
        file.replace(line.getBytes(StandardCharsets.UTF_8));
    }
}
