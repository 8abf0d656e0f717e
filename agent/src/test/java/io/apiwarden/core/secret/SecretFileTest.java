package io.apiwarden.core.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.apiwarden.core.config.ConfigException;
import io.apiwarden.core.config.WardenConfig;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Token files that are not token files: each gets one clear problem, and none hangs or fills the heap. */
class SecretFileTest {
    /** Generous: reading a token file takes microseconds; a FIFO open without a writer never returns. */
    private static final Duration NEVER_HANGS = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private String problemWith(String fileProperty, Path file) {
        Map<String, String> props = new HashMap<>();
        props.put("apiwarden.base-url", "https://api.example.com/v1");
        props.put("apiwarden.auth-url", "https://auth.example.com/");
        props.put(fileProperty, file.toString());
        return assertTimeoutPreemptively(NEVER_HANGS, () -> {
            try {
                WardenConfig.from(props::get, Map.of());
            } catch (ConfigException e) {
                return e.getMessage();
            }
            throw new AssertionError("the configuration was accepted");
        });
    }

    @Test
    void aFifoWithNoWriterIsRefusedWithoutBeingOpened() throws Exception {
        Path fifo = dir.resolve("refresh-token");
        Process mkfifo =
                new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(mkfifo.waitFor()).isZero();

        assertThat(problemWith("apiwarden.refresh-token-file", fifo))
                .contains("apiwarden.refresh-token-file", fifo.toString(), "not a regular file");
    }

    @Test
    void aDeviceThatNeverEndsIsRefused() {
        assertThat(problemWith("apiwarden.access-token-file", Paths.get("/dev/zero")))
                .contains("apiwarden.access-token-file", "/dev/zero", "not a regular file");
    }

    @Test
    void aHugeFileIsRefusedWithoutBeingRead() throws Exception {
        Path huge = dir.resolve("refresh-token");
        try (RandomAccessFile sparse = new RandomAccessFile(huge.toFile(), "rw")) {
            sparse.setLength(200L * 1024 * 1024);
        }

        assertThat(problemWith("apiwarden.refresh-token-file", huge))
                .contains("apiwarden.refresh-token-file", "209715200 bytes", "more than a token file can hold");
    }

    @Test
    void aFolderIsRefused() {
        assertThat(problemWith("apiwarden.refresh-token-file", dir))
                .contains("apiwarden.refresh-token-file", "is a folder");
    }

    @Test
    void aTokenFileBehindASymbolicLinkIsRead() throws Exception {
        Path real = Files.writeString(dir.resolve("token-data"), "linked-token\n");
        Path link = Files.createSymbolicLink(dir.resolve("refresh-token"), real);

        assertThat(SecretFile.read(link)).isEqualTo("linked-token");
    }
}
