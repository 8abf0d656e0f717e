package io.apiwarden.bench;

/**
 * How long each part measures. {@link #FULL} is what {@code docs/benchmarks.md} reports;
 * {@link #QUICK} checks that the suite runs, and its figures are only indicative.
 */
enum Effort {
    /** Two forks, so that a JIT or layout accident in one JVM shows as spread, not as a result. */
    FULL(2, 3, 5, 2, 5),
    QUICK(1, 1, 2, 1, 1);

    final int forks;
    final int warmupIterations;
    final int measurementIterations;
    final int iterationSeconds;
    /** Whole-process runs per setup for start-up and memory; the median is reported. */
    final int processRuns;

    Effort(int forks, int warmupIterations, int measurementIterations, int iterationSeconds, int processRuns) {
        this.forks = forks;
        this.warmupIterations = warmupIterations;
        this.measurementIterations = measurementIterations;
        this.iterationSeconds = iterationSeconds;
        this.processRuns = processRuns;
    }
}
