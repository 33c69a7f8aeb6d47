# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: dceth
  title: Mellanox DC (Dynamically Connected) header
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: |
  Mellanox DC transport reuses the RD opcodes (0x40-0x5F) and puts 8 bytes right after the BTH
  (tshark's "20-byte BTH"); DC requests then carry RDETH, DETH and the RC-form headers, DC responses
  and acknowledgements the RC-form headers only (no RDETH). Its layout is not public, so it is kept
  whole. A packet is DC when the byte after its BTH is not 0: an RDETH starts with a reserved byte, 0.
doc-ref: 'metaroce-v1.md §5 (v1 draft r2)'
seq:
  - id: header
    type: u8
    doc: 'DC header (layout not public; tshark does not show it)'
