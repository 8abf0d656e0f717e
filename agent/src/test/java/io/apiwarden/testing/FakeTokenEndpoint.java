package io.apiwarden.testing;

import io.apiwarden.core.token.Grant;
import io.apiwarden.core.token.TokenEndpoint;
import io.apiwarden.core.token.TokenGrant;
import io.apiwarden.core.token.TokenRefreshException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A token service in memory: issues {@code access-1}, {@code access-2}, ... and, when asked to,
 * rotates refresh tokens or refuses. Refreshes complete when the test says so when held.
 */
public final class FakeTokenEndpoint implements TokenEndpoint {
    private final AtomicInteger issued = new AtomicInteger();
    private final List<String> refreshTokensSeen = new ArrayList<>();
    private final List<CompletableFuture<TokenGrant>> held = new ArrayList<>();
    private volatile Duration expiresIn;
    private volatile boolean rotate;
    private volatile TokenRefreshException failure;
    private volatile boolean hold;
    /** Under strict rotation, the one refresh token the service still accepts; null when any is accepted. */
    private String validRefreshToken;

    private final AtomicInteger invalidGrants = new AtomicInteger();
    private volatile Grant grant = Grant.refreshToken(null);

    /** Issues tokens for the client-credentials grant: no refresh token, ever. */
    public FakeTokenEndpoint clientCredentials() {
        this.grant = Grant.clientCredentials(null);
        return this;
    }

    @Override
    public Grant grant() {
        return grant;
    }

    public FakeTokenEndpoint expiresIn(Duration d) {
        this.expiresIn = d;
        return this;
    }

    public FakeTokenEndpoint rotating() {
        this.rotate = true;
        return this;
    }

    /**
     * Rotation as strict providers do it (Keycloak with no reuse, say): each refresh issues a new
     * refresh token and revokes the one used; any other refresh token is refused with
     * {@code invalid_grant}.
     */
    public synchronized FakeTokenEndpoint strictRotation(String currentRefreshToken) {
        this.rotate = true;
        this.validRefreshToken = currentRefreshToken;
        return this;
    }

    /** How many refreshes strict rotation refused. */
    public int invalidGrants() {
        return invalidGrants.get();
    }

    public FakeTokenEndpoint failingWith(TokenRefreshException e) {
        this.failure = e;
        return this;
    }

    /** Refreshes stay open until {@link #release()}. */
    public FakeTokenEndpoint holding() {
        this.hold = true;
        return this;
    }

    public int requests() {
        return issued.get();
    }

    public synchronized List<String> refreshTokensSeen() {
        return List.copyOf(refreshTokensSeen);
    }

    @Override
    public CompletableFuture<TokenGrant> refresh(String refreshToken) {
        int n;
        synchronized (this) {
            refreshTokensSeen.add(refreshToken);
            if (validRefreshToken != null && !validRefreshToken.equals(refreshToken)) {
                invalidGrants.incrementAndGet();
                return CompletableFuture.failedFuture(new TokenRefreshException("invalid_grant", true));
            }
            n = issued.incrementAndGet();
            if (validRefreshToken != null) {
                validRefreshToken = "refresh-" + n;
            }
        }
        if (failure != null) {
            return CompletableFuture.failedFuture(failure);
        }
        TokenGrant issued = new TokenGrant("access-" + n, expiresIn, rotate ? "refresh-" + n : null);
        if (!hold) {
            return CompletableFuture.completedFuture(issued);
        }
        CompletableFuture<TokenGrant> open = new CompletableFuture<>();
        synchronized (this) {
            held.add(open);
            pendingGrants.add(issued);
        }
        return open;
    }

    private final List<TokenGrant> pendingGrants = new ArrayList<>();

    /** Completes every held refresh. */
    public void release() {
        List<CompletableFuture<TokenGrant>> open;
        List<TokenGrant> grants;
        synchronized (this) {
            open = new ArrayList<>(held);
            grants = new ArrayList<>(pendingGrants);
            held.clear();
            pendingGrants.clear();
        }
        for (int i = 0; i < open.size(); i++) {
            open.get(i).complete(grants.get(i));
        }
    }
}
