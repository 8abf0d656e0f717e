package io.apiwarden.core.token.store;

import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.secret.SecretFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The files the store keeps beside the refresh-token file ({@code .<name>.state},
 * {@code .<name>.lease}), read as input nobody vouches for: anyone who may write the folder may
 * have put something else there. They are read by the rule of the token files
 * ({@link SecretFile#readOwn}: a regular file, not through a link, bounded), and one that breaks it
 * counts as no file, with one warning naming it; the next write puts a file of the agent's own in
 * its place (a rename replaces a link or a pipe, never what a link points at).
 */
final class SideFile {
    private SideFile() {}

    /** The file's content, trimmed; null when there is none or it is not one the agent wrote. */
    static String read(Path file) throws IOException {
        try {
            return SecretFile.readOwn(file);
        } catch (NoSuchFileException e) {
            return null;
        } catch (SecretFile.Unusable e) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "store-side-file " + file,
                    "the token store's file " + file + " " + e.getMessage()
                            + "; until then it is ignored. Nobody but this agent should write in that folder",
                    null);
            return null;
        }
    }

    /**
     * Makes a file that holds a token owner-only if it was found readable by others (written by an
     * older agent, or copied with a wide mode), with one warning naming it. Never throws: a file
     * this process may not change is still warned about, and rewritten owner-only at the next write.
     */
    static void keepOwnerOnly(Path file) {
        String exposure = SecretFile.exposure(file);
        if (exposure == null) {
            return;
        }
        AgentLog.once(
                AgentLog.Level.WARN,
                "store-exposed " + file,
                "the token store's file " + exposure + "; it holds the access token (the agent makes it owner-only)",
                null);
        try {
            PosixFileAttributeView view =
                    Files.getFileAttributeView(file, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
            if (view != null) {
                view.setPermissions(PosixFilePermissions.fromString("rw-------"));
            }
        } catch (IOException | RuntimeException e) {
            // Warned about; the next write replaces it with an owner-only file.
        }
    }
}
