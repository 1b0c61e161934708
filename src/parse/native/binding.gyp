{
  "targets": [
    {
      "target_name": "flat_tree",
      "sources": [
        "flat_tree.c",
        "../../../node_modules/tree-sitter-go/src/parser.c"
      ],
      "include_dirs": [
        "../../../node_modules/tree-sitter/vendor/tree-sitter/lib/include",
        "../../../node_modules/tree-sitter/vendor/tree-sitter/lib/src",
        "../../../node_modules/tree-sitter-go/src"
      ],
      "cflags_c": ["-std=c11", "-O2", "-Wno-unused-parameter", "-Wno-unused-but-set-variable"],
      "defines": ["NAPI_VERSION=8", "_POSIX_C_SOURCE=200112L", "_DEFAULT_SOURCE"]
    },
    {
      "target_name": "fresh_check",
      "sources": ["fresh_check.c"],
      "cflags_c": ["-std=c11", "-O2", "-pthread"],
      "ldflags": ["-pthread"],
      "defines": ["NAPI_VERSION=8", "_POSIX_C_SOURCE=200809L", "_DEFAULT_SOURCE"]
    },
    {
      "target_name": "map_file",
      "sources": ["map_file.c"],
      "cflags_c": ["-std=c11", "-O2"],
      "defines": ["NAPI_VERSION=8", "_POSIX_C_SOURCE=200809L", "_DEFAULT_SOURCE"]
    }
  ]
}
