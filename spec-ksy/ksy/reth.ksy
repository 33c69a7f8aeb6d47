# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: reth
  title: RDMA Extended Transport Header
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: RDMA Extended Transport Header.
doc-ref: 'metaroce-v1.md §6 (v1 draft r2)'
seq:
  - id: virtual_address
    type: u8
    doc: Virtual address
  - id: r_key
    type: u4
    doc: Remote key
  - id: dma_length
    type: u4
    doc: DMA length
