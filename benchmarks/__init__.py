"""glpipe benchmarks (not part of the installed package): ``bench_draw`` times
the draw path next to raw ModernGL (docs/performance.md); ``gl_call_counter``
counts the GL calls glpipe makes; ``bench_compressed`` times the numpy
decoding of compressed textures on gl33 (docs/formats.md)."""
