package io.apiwarden.bench;

/**
 * How long each part measures. {@link #FULL} is what {@code docs/benchmarks.md} reports;
 * {@link #QUICK} checks that the suite runs, and its figures are only indicative.
 */
enum Effort {
    /**
     * Two forks, so that a JIT or layout accident in one JVM shows as spread, not as a result; warm-up
     * until the client's JIT settles (its calls still got faster through the third second).
     */
    FULL(2, 5, 5, 2, 5, 20),
    /** Three measured iterations: the fewest from which JMH gives an error interval. */
    QUICK(1, 2, 3, 1, 1, 5);

    final int forks;
    final int warmupIterations;
    final int measurementIterations;
    final int iterationSeconds;
    /** Whole-process runs per setup for start-up and memory; the median is reported. */
    final int processRuns;
    /** How long the server is exercised before any measurement, so that its JIT is done before the app's starts. */
    final int serverWarmupSeconds;

    Effort(
            int forks,
            int warmupIterations,
            int measurementIterations,
            int iterationSeconds,
            int processRuns,
            int serverWarmupSeconds) {
        this.forks = forks;
        this.warmupIterations = warmupIterations;
        this.measurementIterations = measurementIterations;
        this.iterationSeconds = iterationSeconds;
        this.processRuns = processRuns;
        this.serverWarmupSeconds = serverWarmupSeconds;
    }
}
