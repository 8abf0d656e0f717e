package io.apiwarden.core.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RefreshTokenFileTest {
    @TempDir
    Path dir;

    @Test
    void replacesTheContentOwnerOnlyAndLeavesNoTemporaryFile() throws Exception {
        Path file = dir.resolve("token");
        Files.writeString(file, "old\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        new RefreshTokenFile(file).write("new");

        assertThat(Files.readString(file)).isEqualTo("new\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        assertThat(files()).containsExactly("token");
    }

    @Test
    void aPreparedWriteHasItsOwnerOnlyTemporaryFileBesideTheFileAndTheOldContentUntilItsCommit() throws Exception {
        Path file = dir.resolve("token");
        Files.writeString(file, "old\n");

        try (RefreshTokenFile.Replacement replacement = new RefreshTokenFile(file).prepare()) {
            assertThat(files()).hasSize(2).contains("token");
            Path temporary = dir.resolve(
                    files().stream().filter(n -> !n.equals("token")).findFirst().orElseThrow());
            assertThat(temporary.getFileName().toString())
                    .startsWith(".token." + ProcessHandle.current().pid() + "-")
                    .endsWith(".tmp");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(temporary)))
                    .isEqualTo("rw-------");
            assertThat(Files.size(temporary))
                    .as("nothing is written before the token is known")
                    .isZero();
            assertThat(Files.readString(file)).isEqualTo("old\n");

            replacement.commit("new");

            assertThat(Files.readString(file)).isEqualTo("new\n");
            assertThat(files()).containsExactly("token");
            assertThatThrownBy(() -> replacement.commit("newer")).isInstanceOf(IllegalStateException.class);
        }
        assertThat(Files.readString(file)).isEqualTo("new\n");
    }

    @Test
    void aPreparedWriteClosedWithoutACommitLeavesTheFileAsItWas() throws Exception {
        Path file = dir.resolve("token");
        Files.writeString(file, "old\n");

        new RefreshTokenFile(file).prepare().close();

        assertThat(Files.readString(file)).isEqualTo("old\n");
        assertThat(files()).containsExactly("token");
    }

    @Test
    void theFirstPrepareDeletesTheTemporaryFilesOfProcessesThatNoLongerRun() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        Path file = dir.resolve("token");
        Files.writeString(file, "old\n");
        Files.writeString(dir.resolve(".token." + ended.pid() + "-1f.tmp"), "killed while writing");
        Files.writeString(dir.resolve(".token." + ProcessHandle.current().pid() + "-2e.tmp"), "a write under way");
        Files.writeString(dir.resolve(".token.9135.tmp"), "not named by this agent");
        Files.writeString(dir.resolve(".token.tmp"), "not named by this agent either");
        Files.writeString(dir.resolve(".other." + ended.pid() + "-3d.tmp"), "another file's");

        new RefreshTokenFile(file).prepare().close();

        assertThat(files())
                .containsExactlyInAnyOrder(
                        "token",
                        ".token." + ProcessHandle.current().pid() + "-2e.tmp",
                        ".token.9135.tmp",
                        ".token.tmp",
                        ".other." + ended.pid() + "-3d.tmp");
    }

    @Test
    void aFileBehindASymbolicLinkIsReplacedWhereTheLinkPointsAndTheLinkStays() throws Exception {
        Path secrets = Files.createDirectory(dir.resolve("secrets"));
        Path secret = Files.writeString(secrets.resolve("refresh-token"), "old\n");
        Path link = Files.createSymbolicLink(dir.resolve("token"), secret);

        new RefreshTokenFile(link).write("new");

        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readString(secret)).isEqualTo("new\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret)))
                .isEqualTo("rw-------");
        assertThat(files()).containsExactly("secrets", "token");
    }

    @Test
    void aMissingFolderIsAnErrorAndNothingIsWritten() {
        Path file = dir.resolve("missing").resolve("token");

        assertThatThrownBy(() -> new RefreshTokenFile(file).write("new")).isInstanceOf(IOException.class);
        assertThat(Files.exists(file)).isFalse();
    }

    private List<String> files() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }
}
