package io.apiwarden.core.token;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.token.store.TokenState;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What each grant answers to the token manager, the store protocol and the endpoint: the only places they differ. */
class GrantTest {
    private static final TokenState WITH_REFRESH = new TokenState(3, "a-3", null, null, "r-3");
    private static final TokenState WITHOUT_REFRESH = new TokenState(3, "a-3", null, null, null);

    @Test
    void theRefreshTokenGrantSpendsTheStatesRefreshTokenAndKeepsARotatedOne() {
        Grant g = Grant.refreshToken(null);

        assertThat(g.type()).isEqualTo("refresh_token");
        assertThat(g.credential(WITH_REFRESH)).isEqualTo("r-3");
        assertThat(g.credential(WITHOUT_REFRESH)).as("nothing to ask with").isNull();
        assertThat(g.form("r+/=")).isEqualTo("grant_type=refresh_token&refresh_token=r%2B%2F%3D");
        assertThat(g.secretIn("r-3")).isEqualTo("r-3");
        assertThat(g.refreshTokenAfter(WITH_REFRESH, new TokenGrant("a-4", null, "r-4")))
                .isEqualTo("r-4");
        assertThat(g.refreshTokenAfter(WITH_REFRESH, new TokenGrant("a-4", null, null)))
                .as("not rotated: kept")
                .isEqualTo("r-3");
        assertThat(g.storeIdentity())
                .as("the keys of running fleets stay as they are")
                .isNull();
    }

    @Test
    void clientCredentialsSpendNothingFromTheStateAndKeepNoRefreshToken() {
        Grant g = Grant.clientCredentials(null);

        assertThat(g.type()).isEqualTo("client_credentials");
        assertThat(g.credential(WITHOUT_REFRESH))
                .isEqualTo(Grant.CLIENT_CREDENTIALS_KEY)
                .isEqualTo(g.credential(WITH_REFRESH));
        assertThat(g.form(Grant.CLIENT_CREDENTIALS_KEY)).isEqualTo("grant_type=client_credentials");
        assertThat(g.secretIn(Grant.CLIENT_CREDENTIALS_KEY))
                .as("the key is not a secret, nor sent")
                .isNull();
        assertThat(g.refreshTokenAfter(WITH_REFRESH, new TokenGrant("a-4", Duration.ofMinutes(5), "r-4")))
                .as("RFC 6749 section 4.4.3: none should come, one that does is never used")
                .isNull();
        assertThat(g.storeIdentity()).isEqualTo("client_credentials");
    }

    @Test
    void aScopeGoesWithEitherGrantFormEncodedAndIntoTheStoreIdentityOfClientCredentials() {
        assertThat(Grant.clientCredentials("read write:all").form(Grant.CLIENT_CREDENTIALS_KEY))
                .isEqualTo("grant_type=client_credentials&scope=read+write%3Aall");
        assertThat(Grant.refreshToken("read").form("r"))
                .isEqualTo("grant_type=refresh_token&refresh_token=r&scope=read");
        assertThat(Grant.clientCredentials("read").storeIdentity())
                .isNotEqualTo(Grant.clientCredentials("write").storeIdentity());
    }

    @Test
    void adviceAfterARefusalNamesWhatToCheckForEachGrant() {
        assertThat(Grant.clientCredentials(null).adviceAfterRefusal("invalid_client"))
                .contains("apiwarden.client-id", "apiwarden.client-secret")
                .doesNotContain("refresh token");
        assertThat(Grant.clientCredentials(null).adviceAfterRefusal("unauthorized_client"))
                .contains("client_credentials grant");
        assertThat(Grant.clientCredentials("x").adviceAfterRefusal("invalid_scope"))
                .contains("apiwarden.scope");
        assertThat(Grant.refreshToken(null).adviceAfterRefusal("invalid_grant")).contains("new refresh token");
    }

    @Test
    void toStringShowsTheGrantAndScopeOnly() {
        assertThat(Grant.clientCredentials("read").toString()).isEqualTo("client_credentials (scope read)");
    }
}
