{
  "targets": [
    {
      "target_name": "dojo_native",
      "sources": ["native/addon.c", "native/memory.c"]
    }
  ]
}
