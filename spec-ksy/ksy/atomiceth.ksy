# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: atomiceth
  title: Atomic Extended Transport Header
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: Atomic Extended Transport Header.
doc-ref: 'metaroce-v1.md §6 (v1 draft r2)'
seq:
  - id: virtual_address
    type: u8
    doc: Virtual address
  - id: r_key
    type: u4
    doc: Remote key
  - id: swap_or_add
    type: u8
    doc: Swap (or add) data
  - id: compare
    type: u8
    doc: Compare data
