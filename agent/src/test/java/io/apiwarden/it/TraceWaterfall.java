package io.apiwarden.it;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Draws one trace's spans as a text waterfall: nesting, timing bars, and the telling attributes. */
final class TraceWaterfall {
    private static final int WIDTH = 40;
    private static final Set<String> SHOWN = Set.of(
            "http.response.status_code",
            "http.request.resend_count",
            "apiwarden.verdict",
            "apiwarden.request_id",
            "apiwarden.token.refresh.result",
            "apiwarden.attempts",
            "apiwarden.waited_ms");

    private TraceWaterfall() {}

    static String draw(List<Span> trace) {
        long start = trace.stream().mapToLong(Span::getStartTimeUnixNano).min().orElse(0);
        long end = trace.stream().mapToLong(Span::getEndTimeUnixNano).max().orElse(1);
        double scale = WIDTH / (double) Math.max(1, end - start);
        StringBuilder out = new StringBuilder();
        List<Span> roots = trace.stream()
                .filter(s -> trace.stream().noneMatch(p -> p.getSpanId().equals(s.getParentSpanId())))
                .collect(Collectors.toList());
        for (Span root : roots) {
            draw(trace, root, 0, start, scale, out);
        }
        return out.toString();
    }

    private static void draw(List<Span> trace, Span span, int depth, long start, double scale, StringBuilder out) {
        int from = Math.min(WIDTH - 1, (int) Math.round((span.getStartTimeUnixNano() - start) * scale));
        int to = Math.max(from + 1, (int) Math.round((span.getEndTimeUnixNano() - start) * scale));
        String bar = " ".repeat(from)
                + "#".repeat(Math.min(WIDTH, to) - from)
                + " ".repeat(Math.max(0, WIDTH - Math.min(WIDTH, to)));
        String label = "  ".repeat(depth) + span.getName() + " ["
                + span.getKind().name().replace("SPAN_KIND_", "").toLowerCase() + "]";
        long ms = (span.getEndTimeUnixNano() - span.getStartTimeUnixNano()) / 1_000_000;
        out.append(String.format("%-30s |%s| %5d ms  %s%n", label, bar, ms, attributes(span)));
        for (Span.Event e : span.getEventsList()) {
            out.append(String.format(
                    "%-30s |%s|           %s%n",
                    "  ".repeat(depth + 1) + "* " + e.getName(),
                    " ".repeat(WIDTH),
                    e.getAttributesList().stream().map(TraceWaterfall::pair).collect(Collectors.joining(" "))));
        }
        List<Span> children = new ArrayList<>();
        for (Span s : trace) {
            if (s.getParentSpanId().equals(span.getSpanId())) {
                children.add(s);
            }
        }
        children.sort(Comparator.comparingLong(Span::getStartTimeUnixNano));
        for (Span child : children) {
            draw(trace, child, depth + 1, start, scale, out);
        }
    }

    private static String attributes(Span span) {
        return span.getAttributesList().stream()
                .filter(kv -> SHOWN.contains(kv.getKey()))
                .map(TraceWaterfall::pair)
                .collect(Collectors.joining(" "));
    }

    private static String pair(KeyValue kv) {
        AnyValue v = kv.getValue();
        String value = v.hasStringValue()
                ? v.getStringValue()
                : v.hasIntValue()
                        ? Long.toString(v.getIntValue())
                        : v.toString().trim();
        return kv.getKey().replace("apiwarden.", "") + "=" + value;
    }
}
