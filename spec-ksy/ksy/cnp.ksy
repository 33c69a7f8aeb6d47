# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: cnp
  title: RoCEv2 Congestion Notification Packet body
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: '16 reserved bytes after the BTH of a CNP (opcode 0x81).'
doc-ref: 'metaroce-v1.md §5 (v1 draft r2)'
seq:
  - id: reserved
    size: 16
    doc: Reserved (reserved, must be 0)
