package io.apiwarden.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** The test harness itself: an executable binary, a server that answers, dies on SIGKILL, comes back on its port, and shuts down cleanly. */
class RedisServerProcessTest {

    private static Socket connect(int port) throws IOException {
        return new Socket(InetAddress.getLoopbackAddress(), port);
    }

    @Test
    void startsKillsRestartsOnTheSamePortAndShutsDownCleanly() throws Exception {
        assertThat(Files.isExecutable(RedisServerProcess.binary())).isTrue();
        RedisServerProcess redis = RedisServerProcess.start();
        try {
            int port = redis.port();
            connect(port).close();

            redis.kill();
            assertThat(redis.isAlive()).isFalse();
            assertThatThrownBy(() -> connect(port)).isInstanceOf(ConnectException.class);

            redis.restart();
            assertThat(redis.port()).isEqualTo(port);
            connect(port).close();

            assertThat(redis.shutDown()).as("exit code after SIGTERM").isZero();
            assertThatThrownBy(() -> connect(port)).isInstanceOf(ConnectException.class);
        } finally {
            redis.close();
        }
    }
}
