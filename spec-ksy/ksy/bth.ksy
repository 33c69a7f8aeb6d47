# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: bth
  title: Base Transport Header
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: 'First transport header of every RoCEv2 and MetaRoCE packet; byte 4 is masked in the ICRC.'
doc-ref: 'metaroce-v1.md §2 (v1 draft r2)'
seq:
  - id: opcode
    -orig-id: OpCode
    type: u1
    doc: 'Opcode: transport (bits 7-5) + operation (bits 4-0)'
  - id: se
    -orig-id: SE
    type: b1
    doc: Solicited event
  - id: m
    -orig-id: M
    type: b1
    doc: Migration state
  - id: pad_cnt
    -orig-id: PadCnt
    type: b2
    doc: 'Pad count: pad bytes before the ICRC'
  - id: tver
    -orig-id: TVer
    type: b4
    doc: 'Transport version: 0 RoCEv2, 1 MetaRoCE v1 (A1)'
  - id: p_key
    -orig-id: P_Key
    type: u2
    doc: Partition key
  - id: fecn
    -orig-id: FECN
    type: b1
    doc: Forward ECN
  - id: becn
    -orig-id: BECN
    type: b1
    doc: 'Backward ECN: 1 in a CNP'
  - id: resv6
    type: b6
    doc: Reserved (reserved, must be 0)
  - id: dest_qp
    -orig-id: DestQP
    type: b24
    doc: Destination QP
  - id: ack_req
    -orig-id: A
    type: b1
    doc: Acknowledge request
  - id: resv7
    type: b7
    doc: Reserved (reserved, must be 0)
  - id: psn
    -orig-id: PSN
    type: b24
    doc: Packet sequence number
instances:
  opcode_enum:
    value: opcode
    enum: opcode
enums:
  opcode:
    0x00:
      id: rc_send_first
      doc: RC SEND First
    0x01:
      id: rc_send_middle
      doc: RC SEND Middle
    0x02:
      id: rc_send_last
      doc: RC SEND Last
    0x03:
      id: rc_send_last_imm
      doc: RC SEND Last with Immediate
    0x04:
      id: rc_send_only
      doc: RC SEND Only
    0x05:
      id: rc_send_only_imm
      doc: RC SEND Only with Immediate
    0x06:
      id: rc_rdma_write_first
      doc: RC RDMA WRITE First
    0x07:
      id: rc_rdma_write_middle
      doc: RC RDMA WRITE Middle
    0x08:
      id: rc_rdma_write_last
      doc: RC RDMA WRITE Last
    0x09:
      id: rc_rdma_write_last_imm
      doc: RC RDMA WRITE Last with Immediate
    0x0A:
      id: rc_rdma_write_only
      doc: RC RDMA WRITE Only
    0x0B:
      id: rc_rdma_write_only_imm
      doc: RC RDMA WRITE Only with Immediate
    0x0C:
      id: rc_rdma_read_request
      doc: RC RDMA READ Request
    0x0D:
      id: rc_rdma_read_response_first
      doc: RC RDMA READ Response First
    0x0E:
      id: rc_rdma_read_response_middle
      doc: RC RDMA READ Response Middle
    0x0F:
      id: rc_rdma_read_response_last
      doc: RC RDMA READ Response Last
    0x10:
      id: rc_rdma_read_response_only
      doc: RC RDMA READ Response Only
    0x11:
      id: rc_acknowledge
      doc: RC Acknowledge
    0x12:
      id: rc_atomic_acknowledge
      doc: RC ATOMIC Acknowledge
    0x13:
      id: rc_compare_swap
      doc: 'RC Compare & Swap'
    0x14:
      id: rc_fetch_add
      doc: 'RC Fetch & Add'
    0x16:
      id: rc_send_last_inv
      doc: RC SEND Last with Invalidate
    0x17:
      id: rc_send_only_inv
      doc: RC SEND Only with Invalidate
    0x1C:
      id: rc_rdma_flush
      doc: RC RDMA FLUSH
    0x1D:
      id: rc_rdma_atomic_write
      doc: RC RDMA ATOMIC WRITE
    0x20:
      id: uc_send_first
      doc: UC SEND First
    0x21:
      id: uc_send_middle
      doc: UC SEND Middle
    0x22:
      id: uc_send_last
      doc: UC SEND Last
    0x23:
      id: uc_send_last_imm
      doc: UC SEND Last with Immediate
    0x24:
      id: uc_send_only
      doc: UC SEND Only
    0x25:
      id: uc_send_only_imm
      doc: UC SEND Only with Immediate
    0x26:
      id: uc_rdma_write_first
      doc: UC RDMA WRITE First
    0x27:
      id: uc_rdma_write_middle
      doc: UC RDMA WRITE Middle
    0x28:
      id: uc_rdma_write_last
      doc: UC RDMA WRITE Last
    0x29:
      id: uc_rdma_write_last_imm
      doc: UC RDMA WRITE Last with Immediate
    0x2A:
      id: uc_rdma_write_only
      doc: UC RDMA WRITE Only
    0x2B:
      id: uc_rdma_write_only_imm
      doc: UC RDMA WRITE Only with Immediate
    0x40:
      id: rd_send_first
      doc: RD SEND First
    0x41:
      id: rd_send_middle
      doc: RD SEND Middle
    0x42:
      id: rd_send_last
      doc: RD SEND Last
    0x43:
      id: rd_send_last_imm
      doc: RD SEND Last with Immediate
    0x44:
      id: rd_send_only
      doc: RD SEND Only
    0x45:
      id: rd_send_only_imm
      doc: RD SEND Only with Immediate
    0x46:
      id: rd_rdma_write_first
      doc: RD RDMA WRITE First
    0x47:
      id: rd_rdma_write_middle
      doc: RD RDMA WRITE Middle
    0x48:
      id: rd_rdma_write_last
      doc: RD RDMA WRITE Last
    0x49:
      id: rd_rdma_write_last_imm
      doc: RD RDMA WRITE Last with Immediate
    0x4A:
      id: rd_rdma_write_only
      doc: RD RDMA WRITE Only
    0x4B:
      id: rd_rdma_write_only_imm
      doc: RD RDMA WRITE Only with Immediate
    0x4C:
      id: rd_rdma_read_request
      doc: RD RDMA READ Request
    0x4D:
      id: rd_rdma_read_response_first
      doc: RD RDMA READ Response First
    0x4E:
      id: rd_rdma_read_response_middle
      doc: RD RDMA READ Response Middle
    0x4F:
      id: rd_rdma_read_response_last
      doc: RD RDMA READ Response Last
    0x50:
      id: rd_rdma_read_response_only
      doc: RD RDMA READ Response Only
    0x51:
      id: rd_acknowledge
      doc: RD Acknowledge
    0x52:
      id: rd_atomic_acknowledge
      doc: RD ATOMIC Acknowledge
    0x53:
      id: rd_compare_swap
      doc: 'RD Compare & Swap'
    0x54:
      id: rd_fetch_add
      doc: 'RD Fetch & Add'
    0x55:
      id: rd_resync
      doc: RD RESYNC
    0x5C:
      id: rd_rdma_flush
      doc: RD RDMA FLUSH
    0x64:
      id: ud_send_only
      doc: UD SEND Only
    0x65:
      id: ud_send_only_imm
      doc: UD SEND Only with Immediate
    0x81:
      id: cnp
      doc: CNP
    0xA0:
      id: xrc_send_first
      doc: XRC SEND First
    0xA1:
      id: xrc_send_middle
      doc: XRC SEND Middle
    0xA2:
      id: xrc_send_last
      doc: XRC SEND Last
    0xA3:
      id: xrc_send_last_imm
      doc: XRC SEND Last with Immediate
    0xA4:
      id: xrc_send_only
      doc: XRC SEND Only
    0xA5:
      id: xrc_send_only_imm
      doc: XRC SEND Only with Immediate
    0xA6:
      id: xrc_rdma_write_first
      doc: XRC RDMA WRITE First
    0xA7:
      id: xrc_rdma_write_middle
      doc: XRC RDMA WRITE Middle
    0xA8:
      id: xrc_rdma_write_last
      doc: XRC RDMA WRITE Last
    0xA9:
      id: xrc_rdma_write_last_imm
      doc: XRC RDMA WRITE Last with Immediate
    0xAA:
      id: xrc_rdma_write_only
      doc: XRC RDMA WRITE Only
    0xAB:
      id: xrc_rdma_write_only_imm
      doc: XRC RDMA WRITE Only with Immediate
    0xAC:
      id: xrc_rdma_read_request
      doc: XRC RDMA READ Request
    0xAD:
      id: xrc_rdma_read_response_first
      doc: XRC RDMA READ Response First
    0xAE:
      id: xrc_rdma_read_response_middle
      doc: XRC RDMA READ Response Middle
    0xAF:
      id: xrc_rdma_read_response_last
      doc: XRC RDMA READ Response Last
    0xB0:
      id: xrc_rdma_read_response_only
      doc: XRC RDMA READ Response Only
    0xB1:
      id: xrc_acknowledge
      doc: XRC Acknowledge
    0xB2:
      id: xrc_atomic_acknowledge
      doc: XRC ATOMIC Acknowledge
    0xB3:
      id: xrc_compare_swap
      doc: 'XRC Compare & Swap'
    0xB4:
      id: xrc_fetch_add
      doc: 'XRC Fetch & Add'
    0xB6:
      id: xrc_send_last_inv
      doc: XRC SEND Last with Invalidate
    0xB7:
      id: xrc_send_only_inv
      doc: XRC SEND Only with Invalidate
    0xE0:
      id: mr_sack
      doc: MR-SACK
    0xE1:
      id: mr_nack
      doc: MR-NACK
    0xE2:
      id: mr_credit
      doc: MR-CREDIT
    0xE3:
      id: mr_cnp
      doc: MR-CNP
    0xE4:
      id: mr_probe
      doc: MR-PROBE
    0xE5:
      id: mr_probe_reply
      doc: MR-PROBE-REPLY
