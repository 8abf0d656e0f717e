package io.apiwarden.clients.micronaut.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import io.apiwarden.core.time.DelayScheduler;
import io.micronaut.core.propagation.PropagatedContext;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.client.HttpClientConfiguration;
import io.micronaut.http.client.filter.ClientFilterResolutionContext;
import io.micronaut.http.client.netty.DefaultHttpClient;
import io.micronaut.http.filter.FilterOrder;
import io.micronaut.http.filter.GenericHttpFilter;
import io.micronaut.http.filter.HttpClientFilter;
import io.micronaut.http.filter.HttpClientFilterResolver;
import io.micronaut.http.filter.HttpFilterResolver;
import java.lang.reflect.Field;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

/**
 * Micronaut's HTTP client 4 (the Netty {@code DefaultHttpClient}, behind {@code HttpClient}, {@code toBlocking()},
 * the streaming faces and declarative {@code @Client} interfaces) managed without the agent (library mode), and what
 * the agent's hook calls.
 *
 * <pre>{@code
 * WardenMicronautHttp warden = WardenMicronautHttp.create(w);
 * HttpClient client = warden.manage(HttpClient.create(url));     // a client built without a context
 * @Singleton HttpClientFilter apiWarden() { return warden.filter(); }  // or, in an application, a bean
 * }</pre>
 *
 * <p>The agent's place is a client filter, the innermost: every request Micronaut sends, a redirect hop included,
 * passes its filters, and a filter may send the request down the rest of the chain again. With the agent, the
 * filter is put into the list Micronaut resolves for each request; in library mode, it is a bean, or
 * {@link #manage} puts it into a client's filter resolver.
 */
public final class WardenMicronautHttp {
    /**
     * The agent's filter's order (Micronaut sorts the list before running it): the filter's own, innermost. {@code
     * FilterOrder.Dynamic} is a record, which code compiled for Java 11 cannot name, hence the reflection, once.
     */
    private static final FilterOrder INNERMOST = dynamicOrder();

    /** The Warden of each request's API: one Warden in library mode, the agent's router otherwise. */
    private final Wardens wardens;
    /** Where waits go; null for the timer of each call's Warden. */
    private final DelayScheduler timer;

    private final Executor completions;

    private WardenMicronautHttp(Wardens wardens, DelayScheduler timer) {
        this.wardens = wardens;
        this.timer = timer;
        // The app's publisher completes there after a wait or a refresh, never on the agent's timer or token threads.
        this.completions = ForkJoinPool.commonPool();
    }

    /** Waits on the warden's timer (a thread of the agent's, never one of Micronaut's event loops). */
    public static WardenMicronautHttp create(Warden warden) {
        return new WardenMicronautHttp(warden, warden.scheduler());
    }

    /** Waits on {@code timer}. */
    public static WardenMicronautHttp create(Warden warden, DelayScheduler timer) {
        return new WardenMicronautHttp(warden, timer);
    }

    /**
     * For the APIs {@code wardens} routes to (the agent's router): each call gets its API's Warden, and waits on
     * that Warden's timer.
     */
    public static WardenMicronautHttp create(Wardens wardens) {
        return new WardenMicronautHttp(wardens, null);
    }

    /**
     * The filter, as a bean of the app's context: every client of the context runs it. It cannot know a client's
     * request time-out, so the back-off is bounded by the agent's own limits only.
     */
    public HttpClientFilter filter() {
        return new WardenFilter(wardens, timer, completions, null);
    }

    /**
     * Puts the filter into a client built without a context ({@code HttpClient.create(url)}, {@code
     * DefaultHttpClient.builder()...build()}), with the client's own request time-out as the calls' limit.
     *
     * @throws IllegalArgumentException when {@code client} is not Micronaut's Netty client, or its filter resolver
     *     cannot be reached (a Micronaut whose client changed): then manage it with {@link #filter()} as a bean
     */
    public <C extends io.micronaut.http.client.HttpClient> C manage(C client) {
        if (!(client instanceof DefaultHttpClient)) {
            throw new IllegalArgumentException("not Micronaut's Netty client (DefaultHttpClient): "
                    + client.getClass().getName() + "; register WardenMicronautHttp.filter() as a bean instead");
        }
        DefaultHttpClient netty = (DefaultHttpClient) client;
        try {
            Field field = DefaultHttpClient.class.getDeclaredField("filterResolver");
            field.setAccessible(true);
            @SuppressWarnings("unchecked")
            HttpClientFilterResolver<ClientFilterResolutionContext> resolver =
                    (HttpClientFilterResolver<ClientFilterResolutionContext>) field.get(netty);
            field.set(netty, new ManagedResolver(resolver, filterOf(netty)));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException(
                    "this Micronaut client's filters cannot be reached ("
                            + e.getClass().getSimpleName()
                            + "); register WardenMicronautHttp.filter() as a bean instead",
                    e);
        }
        return client;
    }

    /**
     * What the agent's hook calls with the filters Micronaut resolved for one request: the list with the agent's
     * filter added, when the request goes to the API or is a redirect hop of one of the agent's attempts; the list
     * as it is otherwise (one scope check).
     */
    List<?> filters(
            List<GenericHttpFilter> resolved,
            DefaultHttpClient client,
            PropagatedContext context,
            HttpRequest<?> request) {
        boolean hop = context != null && context.find(AttemptElement.class).isPresent();
        if (!hop && !inScope(request.getUri())) {
            return resolved;
        }
        List<GenericHttpFilter> filters = new ArrayList<>(resolved.size() + 1);
        filters.addAll(resolved);
        filters.add(filterOf(client));
        return filters;
    }

    private static FilterOrder dynamicOrder() {
        try {
            return (FilterOrder)
                    Class.forName(FilterOrder.class.getName() + "$Dynamic", true, FilterOrder.class.getClassLoader())
                            .getConstructor(int.class)
                            .newInstance(Integer.MIN_VALUE);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(
                    "Micronaut's FilterOrder.Dynamic is not there: a Micronaut this agent does not know", e);
        }
    }

    private boolean inScope(URI uri) {
        return uri != null && uri.getHost() != null && wardens.forRequest(uri) != null;
    }

    private GenericHttpFilter filterOf(DefaultHttpClient client) {
        return GenericHttpFilter.createLegacyFilter(
                new WardenFilter(wardens, timer, completions, timeLimit(client.getConfiguration())), INNERMOST);
    }

    /**
     * The client's limit for one call as Micronaut applies it above its filters (to {@code exchange} and {@code
     * retrieve}): its request time-out, or, when none is set, its read time-out and one second more.
     */
    static Duration timeLimit(HttpClientConfiguration configuration) {
        Duration limit = configuration.getRequestTimeout();
        if (limit == null) {
            limit = configuration
                    .getReadTimeout()
                    .filter(d -> !d.isNegative())
                    .map(d -> d.plusSeconds(1))
                    .orElse(null);
        }
        return limit == null || limit.isNegative() ? null : limit;
    }

    /** A client's own resolver, with the agent's filter at the end of every request's list. */
    private static final class ManagedResolver implements HttpClientFilterResolver<ClientFilterResolutionContext> {
        private final HttpClientFilterResolver<ClientFilterResolutionContext> resolver;
        private final GenericHttpFilter filter;

        ManagedResolver(HttpClientFilterResolver<ClientFilterResolutionContext> resolver, GenericHttpFilter filter) {
            this.resolver = resolver;
            this.filter = filter;
        }

        @Override
        public List<HttpFilterResolver.FilterEntry> resolveFilterEntries(ClientFilterResolutionContext context) {
            return resolver.resolveFilterEntries(context);
        }

        @Override
        public List<GenericHttpFilter> resolveFilters(
                HttpRequest<?> request, List<HttpFilterResolver.FilterEntry> filterEntries) {
            List<GenericHttpFilter> filters = new ArrayList<>(resolver.resolveFilters(request, filterEntries));
            filters.add(filter);
            return filters;
        }
    }
}
