{
  "targets": [
    {
      "target_name": "isal_inflate",
      "sources": ["src/isal_inflate.c"],
      "libraries": ["-lisal"],
      "cflags": ["-O2", "-Wall", "-Wextra"]
    }
  ]
}
