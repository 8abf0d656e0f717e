package io.apiwarden.core.token.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.testing.SilentServer;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * What the store's sockets ask of the JDK for each step of an operation: a time-out that is what is left of
 * the operation's deadline, never more; no step once it has passed. So an operation ends by its deadline
 * however its time is spent (connect, handshake, a reply trickling in), and a caller whose turn came late
 * has only the rest of its time. Asserted on the time-outs the sockets were given, not on how long anything
 * took.
 */
class DeadlineSocketsTest {
    /** Far above what setting up a loopback socket takes, so that none of it runs out while the test looks. */
    private static final Duration OPERATION = Duration.ofSeconds(30);

    private static long deadlineIn(Duration d) {
        return System.nanoTime() + d.toNanos();
    }

    @Test
    void theConnectedSocketsReadTimeOutIsWhatIsLeftOfTheOperationNeverMore() throws Exception {
        try (SilentServer silent = new SilentServer()) {
            DeadlineSockets sockets = new DeadlineSockets("127.0.0.1", silent.port(), false);
            sockets.deadline(deadlineIn(OPERATION));

            try (Socket socket = sockets.createSocket()) {
                assertThat(socket.getSoTimeout())
                        .as("milliseconds a read may wait")
                        .isPositive()
                        .isLessThanOrEqualTo((int) OPERATION.toMillis());
            }
        }
    }

    @Test
    void eachReadIsGivenWhatIsLeftOfTheCurrentDeadlineNotTheTimeOutItWasConnectedWith() throws Exception {
        try (SilentServer silent = new SilentServer()) {
            DeadlineSockets sockets = new DeadlineSockets("127.0.0.1", silent.port(), false);
            sockets.deadline(deadlineIn(OPERATION));
            try (Socket socket = sockets.createSocket()) {
                InputStream in = socket.getInputStream();
                Duration shorter = Duration.ofMillis(100);
                sockets.deadline(deadlineIn(shorter));

                assertThatThrownBy(in::read).isInstanceOf(SocketTimeoutException.class);
                assertThat(socket.getSoTimeout())
                        .as("milliseconds the read was given")
                        .isPositive()
                        .isLessThanOrEqualTo((int) shorter.toMillis());
            }
        }
    }

    @Test
    void noReadStartsOnceTheDeadlineHasPassed() throws Exception {
        try (SilentServer silent = new SilentServer()) {
            DeadlineSockets sockets = new DeadlineSockets("127.0.0.1", silent.port(), false);
            sockets.deadline(deadlineIn(OPERATION));
            try (Socket socket = sockets.createSocket()) {
                InputStream in = socket.getInputStream();
                sockets.deadline(System.nanoTime() - 1);

                assertThatThrownBy(in::read)
                        .isInstanceOf(SocketTimeoutException.class)
                        .hasMessage("the store's time-out ran out");
            }
        }
    }

    @Test
    void noConnectionIsOpenedOnceTheDeadlineHasPassed() throws Exception {
        try (SilentServer silent = new SilentServer()) {
            DeadlineSockets sockets = new DeadlineSockets("127.0.0.1", silent.port(), false);
            sockets.deadline(System.nanoTime() - 1);

            assertThatThrownBy(sockets::createSocket)
                    .isInstanceOf(JedisConnectionException.class)
                    .hasRootCauseInstanceOf(SocketTimeoutException.class)
                    .hasRootCauseMessage("the store's time-out ran out");
            assertThat(silent.connections()).as("connections the server took").isZero();
        }
    }
}
