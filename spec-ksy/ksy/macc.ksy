# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: macc
  title: MAC Control
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: |
  Opcode of a MAC Control frame; 0x0001 PAUSE (macc_pause follows), 0x0101 PFC (macc_cbfc,
  macc_cbfc_times).
doc-ref: 'metaroce-v1.md §1 (v1 draft r2)'
seq:
  - id: opcode
    type: u2
    doc: Opcode
instances:
  opcode_enum:
    value: opcode
    enum: macc_opcode
enums:
  macc_opcode:
    0x01:
      id: pause
      doc: Pause
    0x101:
      id: cbfc_pause
      doc: 'Class Based Flow Control [CBFC] Pause'
