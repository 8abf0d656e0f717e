package io.apiwarden.core.config;

import io.apiwarden.core.dpop.DpopKey;
import io.apiwarden.core.scope.ApiScope;
import io.apiwarden.core.secret.SecretFile;
import io.apiwarden.core.token.ClientAuthentication;
import io.apiwarden.core.token.Grant;
import io.apiwarden.core.token.TokenText;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;
import java.util.function.Function;

/**
 * Who an API and its OAuth client are: the base URL, the token endpoint, the grant and its scope, the tokens and
 * the client's credentials. Immutable; secrets are held but never printed. A named API reads only its own values
 * of these ({@link ConfigProperty#identity}).
 */
final class ApiSettings {
    final ApiScope scope;
    final URI tokenUrl;
    final String accessToken;
    /** Where the access token came from, when from a file: the agent follows it as it changes. */
    final Path accessTokenFile;

    final String refreshToken;
    final Path refreshTokenFile;
    final String clientId;
    final String clientSecret;
    /** Where the client secret came from, when from a file: the agent follows it as it changes. */
    final Path clientSecretFile;

    final Grant grant;
    final ClientAuthentication clientAuthentication;
    final ClientKeySettings clientKeys;
    /** The DPoP key, or null when DPoP is off. */
    final DpopKey dpopKey;
    /** The file the DPoP key came from, followed as it changes; null when DPoP is off or the key was generated. */
    final Path dpopKeyFile;
    /** The configured algorithm of the DPoP proofs, or null for the key's default. */
    final String dpopAlgorithm;

    private ApiSettings(SectionReader r) {
        scope = baseUrl(r);
        tokenUrl = tokenUrl(r);
        accessToken = r.secret(ConfigProperty.ACCESS_TOKEN, ConfigProperty.ACCESS_TOKEN_FILE, Unfit.ACCESS_TOKEN);
        String tokenFile = r.raw(ConfigProperty.ACCESS_TOKEN_FILE);
        accessTokenFile = tokenFile == null || accessToken == null ? null : Paths.get(tokenFile);
        refreshToken = r.secret(ConfigProperty.REFRESH_TOKEN, ConfigProperty.REFRESH_TOKEN_FILE, Unfit.REFRESH_TOKEN);
        String file = r.raw(ConfigProperty.REFRESH_TOKEN_FILE);
        refreshTokenFile = file == null ? null : Paths.get(file);
        clientId = r.raw(ConfigProperty.CLIENT_ID);
        clientSecret = r.secret(ConfigProperty.CLIENT_SECRET, ConfigProperty.CLIENT_SECRET_FILE, Unfit.CLIENT_SECRET);
        String secretFile = r.raw(ConfigProperty.CLIENT_SECRET_FILE);
        clientSecretFile = secretFile == null ? null : Paths.get(secretFile);
        grant = grant(r, scopeNames(r));
        clientAuthentication = clientAuthentication(r);
        clientKeys = ClientKeySettings.read(r, clientAuthentication);
        dpopKey = DpopSettings.read(
                r, r.raw(ConfigProperty.STORE) != null || (refreshTokenFile != null && refreshToken != null));
        String dpopFile = dpopKey == null ? null : r.raw(ConfigProperty.DPOP_KEY_FILE);
        dpopKeyFile = dpopFile == null ? null : Paths.get(dpopFile);
        dpopAlgorithm = dpopKey == null ? null : r.raw(ConfigProperty.DPOP_ALGORITHM);
    }

    /** Reads and checks an API's identity; its problems and warnings go to the reader's {@link Problems}. */
    static ApiSettings read(SectionReader r) {
        ApiSettings api = new ApiSettings(r);
        new TokenChecks(r, api).check();
        warnAboutCleartext(r, ConfigProperty.BASE_URL, api.scope == null ? null : api.scope.baseUrl());
        warnAboutCleartext(r, ConfigProperty.TOKEN_URL, api.tokenUrl);
        api.warnAboutTheRefreshTokenFile(r);
        return api;
    }

    private static ApiScope baseUrl(SectionReader r) {
        ConfigProperty p = ConfigProperty.BASE_URL;
        String value = r.raw(p);
        if (value == null) {
            r.problems()
                    .add(r.where(p) + " is required: set it to the API base, e.g. -D" + r.key(p)
                            + "=https://api.example.com/v1");
            return null;
        }
        URI uri = r.httpUrl(p, value);
        if (uri == null) {
            return null;
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            r.problems().add(r.where(p) + " has a query or fragment: give only scheme, host, port and path");
            return null;
        }
        return ApiScope.of(uri);
    }

    private static URI tokenUrl(SectionReader r) {
        String explicit = r.raw(ConfigProperty.TOKEN_URL);
        if (explicit != null) {
            return r.httpUrl(ConfigProperty.TOKEN_URL, explicit);
        }
        String auth = r.raw(ConfigProperty.AUTH_URL);
        if (auth == null) {
            return null;
        }
        URI base = r.httpUrl(ConfigProperty.AUTH_URL, auth);
        if (base == null) {
            return null;
        }
        if (base.getRawQuery() != null || base.getRawFragment() != null) {
            r.problems()
                    .add(r.where(ConfigProperty.AUTH_URL)
                            + " has a query or fragment, so {auth-url}/token would be wrong: "
                            + "give the base alone, or the whole endpoint as " + r.key(ConfigProperty.TOKEN_URL));
            return null;
        }
        String s = base.toString();
        return URI.create(s.endsWith("/") ? s + "token" : s + "/token");
    }

    /** The grant; the RFC's spelling, or with hyphens as the other properties' values are written. */
    private static Grant grant(SectionReader r, String scope) {
        ConfigProperty p = ConfigProperty.GRANT;
        String value = r.valueOrDefault(p).toLowerCase(Locale.ROOT).replace('-', '_');
        if (value.equals("refresh_token")) {
            return Grant.refreshToken(scope);
        }
        if (value.equals("client_credentials")) {
            return Grant.clientCredentials(scope);
        }
        r.problems().add(r.where(p) + " is '" + value + "': set it to refresh_token or client_credentials");
        return Grant.refreshToken(scope);
    }

    private static ClientAuthentication clientAuthentication(SectionReader r) {
        ConfigProperty p = ConfigProperty.CLIENT_AUTH;
        String value = r.valueOrDefault(p).toLowerCase(Locale.ROOT).replace('-', '_');
        for (ClientAuthentication a : ClientAuthentication.values()) {
            if (a.configValue().equals(value)) {
                return a;
            }
        }
        r.problems()
                .add(r.where(p) + " is '" + value + "': set it to basic (HTTP Basic), post (in the form),"
                        + " private_key_jwt, tls_client_auth or self_signed_tls_client_auth");
        return ClientAuthentication.BASIC;
    }

    /**
     * The scope: scope tokens of RFC 6749 section 3.3 (printable ASCII but {@code "} and a backslash), separated by
     * spaces; runs of white space count as one.
     */
    private static String scopeNames(SectionReader r) {
        ConfigProperty p = ConfigProperty.SCOPE;
        String value = r.raw(p);
        if (value == null) {
            return null;
        }
        String[] tokens = value.split("[ \t]+");
        for (String t : tokens) {
            if (!t.matches("[\\x21\\x23-\\x5B\\x5D-\\x7E]+")) {
                r.problems()
                        .add(r.where(p)
                                + " holds a character a scope cannot have (quotes, backslashes, control or non-ASCII"
                                + " characters): give scope names separated by spaces, e.g. \"read write\"");
                return null;
            }
        }
        return String.join(" ", tokens);
    }

    /**
     * Why a configured token cannot be used, or null. Tokens are held to RFC 6750's grammar (and an access token to
     * a header's length), as the tokens the token service issues are.
     */
    private static String unfitToken(String value, boolean access) {
        String flaw = TokenText.flaw(value);
        if (flaw != null) {
            return flaw
                    + ", which an RFC 6750 bearer token cannot: set the bare token as the token service issued it ("
                    + TokenText.ALPHABET + "), without quotes or line breaks";
        }
        String tooLong = access ? TokenText.accessTokenFlaw(value) : null;
        return tooLong == null
                ? null
                : tooLong + ", so the agent would never send it: set one access token,"
                        + " or none to have the agent refresh before the first call";
    }

    /** The client secret only needs to be printable, since it is form-encoded before it is sent. */
    private static String unfitSecret(String value) {
        return TokenText.isValid(value)
                ? null
                : "contains spaces or control characters: set the bare secret, without quotes or line breaks";
    }

    /** Each secret's check, as {@link SectionReader#secret} takes it: an enum, not lambdas, which start-up would spin. */
    private enum Unfit implements Function<String, String> {
        ACCESS_TOKEN,
        REFRESH_TOKEN,
        CLIENT_SECRET;

        @Override
        public String apply(String value) {
            return this == CLIENT_SECRET ? unfitSecret(value) : unfitToken(value, this == ACCESS_TOKEN);
        }
    }

    private static void warnAboutCleartext(SectionReader r, ConfigProperty p, URI url) {
        if (url != null && url.getScheme().equalsIgnoreCase("http") && !SectionReader.isLoopback(url.getHost())) {
            r.problems()
                    .warn(r.key(p) + " is plain http to " + url.getHost()
                            + ": tokens would cross the network unencrypted; use https");
        }
    }

    private void warnAboutTheRefreshTokenFile(SectionReader r) {
        if (refreshTokenFile == null || refreshToken == null) {
            return;
        }
        String key = r.key(ConfigProperty.REFRESH_TOKEN_FILE);
        // Where a rotated token is written: beside the file a symbolic link points at.
        Path folder = realPath(refreshTokenFile).getParent();
        if (folder == null || !Files.isWritable(folder)) {
            r.problems()
                    .warn("the folder of " + key + " (" + folder
                            + ") is not writable: a rotated refresh token will be kept in memory only");
        }
        String exposure = SecretFile.exposure(refreshTokenFile);
        if (exposure != null) {
            r.problems()
                    .warn(key + " " + exposure + ": whoever can read or replace the refresh token can act as this app");
        }
    }

    private static Path realPath(Path file) {
        try {
            return file.toRealPath();
        } catch (IOException | RuntimeException e) {
            return file.toAbsolutePath();
        }
    }
}
