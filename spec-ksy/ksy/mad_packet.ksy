# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: mad_packet
  title: Connection-management MAD (RDMA CM over QP 1)
  license: CC0-1.0
  ks-version: '0.11'
  imports:
    - mad
    - cm_req
    - cm_rej
    - cm_rep
    - cm_rtu
    - cm_dreq
    - cm_drep
  endian: be
  bit-endian: be
doc: MAD common header, then the CM message its attribute ID names (REQ, REP, RTU, DREQ, DREP, REJ).
doc-ref: 'metaroce-v1.md §4.1 (v1 draft r2)'
seq:
  - id: mad
    type: mad
  - id: body
    size-eos: true
    type:
      switch-on: 'mad.mgmt_class == 7 ? mad.attribute_id : 0'
      cases:
        0x0010: cm_req
        0x0012: cm_rej
        0x0013: cm_rep
        0x0014: cm_rtu
        0x0015: cm_dreq
        0x0016: cm_drep
