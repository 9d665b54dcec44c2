-- Prints the latency percentiles wrk's own --latency table leaves out (p99.9), in microseconds,
-- as one line the bench parses: "PERCENTILES p50=... p99=... p999=...".
done = function(summary, latency, requests)
  io.write(string.format("PERCENTILES p50=%d p99=%d p999=%d\n",
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9)))
end
