# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: cm_drep
  title: CM DisconnectReply (DREP)
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: CM DisconnectReply (DREP).
doc-ref: 'metaroce-v1.md §4.1 (v1 draft r2)'
seq:
  - id: local_comm_id
    type: u4
    doc: Local communication ID
  - id: remote_comm_id
    type: u4
    doc: Remote communication ID
