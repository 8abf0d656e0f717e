package io.apiwarden.unmanaged;

/**
 * Objects shaped like Apache HttpClient's as far as the watch reads them: public getters, declared in
 * public interfaces, on classes that are not public themselves (as many of the libraries' are).
 */
final class Shapes {
    private Shapes() {}

    public interface HttpHostLike {
        String getSchemeName();

        String getHostName();

        int getPort();
    }

    public interface RequestLineLike {
        String getUri();
    }

    public interface HttpRequestLike {
        RequestLineLike getRequestLine();

        String getPath();
    }

    static final class Host implements HttpHostLike {
        private final String scheme;
        private final String host;
        private final int port;

        Host(String scheme, String host, int port) {
            this.scheme = scheme;
            this.host = host;
            this.port = port;
        }

        @Override
        public String getSchemeName() {
            return scheme;
        }

        @Override
        public String getHostName() {
            return host;
        }

        @Override
        public int getPort() {
            return port;
        }
    }

    static final class Request implements HttpRequestLike {
        private final String uri;

        Request(String uri) {
            this.uri = uri;
        }

        @Override
        public RequestLineLike getRequestLine() {
            return () -> uri;
        }

        @Override
        public String getPath() {
            return uri;
        }
    }
}
