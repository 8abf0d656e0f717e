package io.apiwarden.core.token;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(file);
        }
    }

    @Test
    void aMissingFolderIsAnErrorAndNothingIsWritten() {
        Path file = dir.resolve("missing").resolve("token");

        assertThatThrownBy(() -> new RefreshTokenFile(file).write("new")).isInstanceOf(java.io.IOException.class);
        assertThat(Files.exists(file)).isFalse();
    }
}
