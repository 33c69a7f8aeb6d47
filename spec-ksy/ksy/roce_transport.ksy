# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: roce_transport
  title: RoCEv2 and MetaRoCE v1 transport packet (UDP payload, port 4791)
  license: CC0-1.0
  ks-version: '0.11'
  imports:
    - bth
    - mrth
    - immdt
    - reth
    - aeth
    - atomicacketh
    - atomiceth
    - ieth
    - feth
    - rdeth
    - deth
    - cnp
    - xrceth
    - sacketh
    - nacketh
    - crediteth
    - mrcnpeth
    - probeeth
    - mad_packet
  endian: be
  bit-endian: be
doc: |
  BTH, then MRTH iff bth.tver == 1, then the extension headers the opcode requires (§5: the header
  chain of the opcode, with the RETH that MRTH.spray adds to WRITE Middle/Last), the payload (a MAD
  when sent to QP 1), the pad bytes and the ICRC, stored least significant byte first.
doc-ref: 'metaroce-v1.md §1, §5, §8 (v1 draft r2)'
seq:
  - id: bth
    type: bth
  - id: mrth
    type: mrth
    if: bth.tver == 1
  - id: headers
    type:
      switch-on: chain_key
      cases:
        0x003: chain_immdt
        0x005: chain_immdt
        0x006: chain_reth
        0x009: chain_immdt
        0x00A: chain_reth
        0x00B: chain_reth_immdt
        0x00C: chain_reth
        0x00D: chain_aeth
        0x00F: chain_aeth
        0x010: chain_aeth
        0x011: chain_aeth
        0x012: chain_aeth_atomicacketh
        0x013: chain_atomiceth
        0x014: chain_atomiceth
        0x016: chain_ieth
        0x017: chain_ieth
        0x01C: chain_feth_reth
        0x01D: chain_reth
        0x023: chain_immdt
        0x025: chain_immdt
        0x026: chain_reth
        0x029: chain_immdt
        0x02A: chain_reth
        0x02B: chain_reth_immdt
        0x040: chain_rdeth_deth
        0x041: chain_rdeth_deth
        0x042: chain_rdeth_deth
        0x043: chain_rdeth_deth_immdt
        0x044: chain_rdeth_deth
        0x045: chain_rdeth_deth_immdt
        0x046: chain_rdeth_deth_reth
        0x047: chain_rdeth_deth
        0x048: chain_rdeth_deth
        0x049: chain_rdeth_deth_immdt
        0x04A: chain_rdeth_deth_reth
        0x04B: chain_rdeth_deth_reth_immdt
        0x04C: chain_rdeth_deth_reth
        0x04D: chain_rdeth_aeth
        0x04E: chain_rdeth
        0x04F: chain_rdeth_aeth
        0x050: chain_rdeth_aeth
        0x051: chain_rdeth_aeth
        0x052: chain_rdeth_aeth_atomicacketh
        0x053: chain_rdeth_deth_atomiceth
        0x054: chain_rdeth_deth_atomiceth
        0x055: chain_rdeth_deth
        0x05C: chain_rdeth_deth_feth_reth
        0x064: chain_deth
        0x065: chain_deth_immdt
        0x081: chain_cnp
        0x0A0: chain_xrceth
        0x0A1: chain_xrceth
        0x0A2: chain_xrceth
        0x0A3: chain_xrceth_immdt
        0x0A4: chain_xrceth
        0x0A5: chain_xrceth_immdt
        0x0A6: chain_xrceth_reth
        0x0A7: chain_xrceth
        0x0A8: chain_xrceth
        0x0A9: chain_xrceth_immdt
        0x0AA: chain_xrceth_reth
        0x0AB: chain_xrceth_reth_immdt
        0x0AC: chain_xrceth_reth
        0x0AD: chain_aeth
        0x0AF: chain_aeth
        0x0B0: chain_aeth
        0x0B1: chain_aeth
        0x0B2: chain_aeth_atomicacketh
        0x0B3: chain_xrceth_atomiceth
        0x0B4: chain_xrceth_atomiceth
        0x0B6: chain_xrceth_ieth
        0x0B7: chain_xrceth_ieth
        0x103: chain_immdt
        0x105: chain_immdt
        0x106: chain_reth
        0x109: chain_immdt
        0x10A: chain_reth
        0x10B: chain_reth_immdt
        0x10C: chain_reth
        0x10D: chain_aeth
        0x10F: chain_aeth
        0x110: chain_aeth
        0x111: chain_aeth
        0x112: chain_aeth_atomicacketh
        0x113: chain_atomiceth
        0x114: chain_atomiceth
        0x116: chain_ieth
        0x117: chain_ieth
        0x11C: chain_feth_reth
        0x11D: chain_reth
        0x1E0: chain_sacketh
        0x1E1: chain_nacketh
        0x1E2: chain_crediteth
        0x1E3: chain_mrcnpeth
        0x1E4: chain_probeeth
        0x1E5: chain_probeeth
        0x203: chain_immdt
        0x205: chain_immdt
        0x206: chain_reth
        0x207: chain_reth
        0x208: chain_reth
        0x209: chain_reth_immdt
        0x20A: chain_reth
        0x20B: chain_reth_immdt
        0x20C: chain_reth
        0x20D: chain_aeth
        0x20F: chain_aeth
        0x210: chain_aeth
        0x211: chain_aeth
        0x212: chain_aeth_atomicacketh
        0x213: chain_atomiceth
        0x214: chain_atomiceth
        0x216: chain_ieth
        0x217: chain_ieth
        0x21C: chain_feth_reth
        0x21D: chain_reth
        0x2E0: chain_sacketh
        0x2E1: chain_nacketh
        0x2E2: chain_crediteth
        0x2E3: chain_mrcnpeth
        0x2E4: chain_probeeth
        0x2E5: chain_probeeth
  - id: payload
    size: _io.size - _io.pos - 4 - bth.pad_cnt
    type:
      switch-on: 'bth.dest_qp == 1 and (bth.opcode == 0x64 or bth.opcode == 0x65) ? 1 : 0'
      cases:
        1: mad_packet
    doc: 'Payload bytes; a management datagram (CM) when a UD SEND Only goes to QP 1 (the GSI).'
  - id: pad
    size: bth.pad_cnt
  - id: icrc
    type: u4le
    doc: 'Invariant CRC (§8), stored least significant byte first.'
instances:
  chain_key:
    value: 'bth.tver == 1 ? (mrth.spray ? 512 : 256) + bth.opcode : bth.opcode'
    doc: 'Selects the header chain: opcode, +256 under MetaRoCE, +512 when MRTH.spray is set.'
types:
  chain_immdt:
    seq:
      - id: immdt
        type: immdt
  chain_reth:
    seq:
      - id: reth
        type: reth
  chain_reth_immdt:
    seq:
      - id: reth
        type: reth
      - id: immdt
        type: immdt
  chain_aeth:
    seq:
      - id: aeth
        type: aeth
  chain_aeth_atomicacketh:
    seq:
      - id: aeth
        type: aeth
      - id: atomicacketh
        type: atomicacketh
  chain_atomiceth:
    seq:
      - id: atomiceth
        type: atomiceth
  chain_ieth:
    seq:
      - id: ieth
        type: ieth
  chain_feth_reth:
    seq:
      - id: feth
        type: feth
      - id: reth
        type: reth
  chain_rdeth_deth:
    seq:
      - id: rdeth
        type: rdeth
      - id: deth
        type: deth
  chain_rdeth_deth_immdt:
    seq:
      - id: rdeth
        type: rdeth
      - id: deth
        type: deth
      - id: immdt
        type: immdt
  chain_rdeth_deth_reth:
    seq:
      - id: rdeth
        type: rdeth
      - id: deth
        type: deth
      - id: reth
        type: reth
  chain_rdeth_deth_reth_immdt:
    seq:
      - id: rdeth
        type: rdeth
      - id: deth
        type: deth
      - id: reth
        type: reth
      - id: immdt
        type: immdt
  chain_rdeth_aeth:
    seq:
      - id: rdeth
        type: rdeth
      - id: aeth
        type: aeth
  chain_rdeth:
    seq:
      - id: rdeth
        type: rdeth
  chain_rdeth_aeth_atomicacketh:
    seq:
      - id: rdeth
        type: rdeth
      - id: aeth
        type: aeth
      - id: atomicacketh
        type: atomicacketh
  chain_rdeth_deth_atomiceth:
    seq:
      - id: rdeth
        type: rdeth
      - id: deth
        type: deth
      - id: atomiceth
        type: atomiceth
  chain_rdeth_deth_feth_reth:
    seq:
      - id: rdeth
        type: rdeth
      - id: deth
        type: deth
      - id: feth
        type: feth
      - id: reth
        type: reth
  chain_deth:
    seq:
      - id: deth
        type: deth
  chain_deth_immdt:
    seq:
      - id: deth
        type: deth
      - id: immdt
        type: immdt
  chain_cnp:
    seq:
      - id: cnp
        type: cnp
  chain_xrceth:
    seq:
      - id: xrceth
        type: xrceth
  chain_xrceth_immdt:
    seq:
      - id: xrceth
        type: xrceth
      - id: immdt
        type: immdt
  chain_xrceth_reth:
    seq:
      - id: xrceth
        type: xrceth
      - id: reth
        type: reth
  chain_xrceth_reth_immdt:
    seq:
      - id: xrceth
        type: xrceth
      - id: reth
        type: reth
      - id: immdt
        type: immdt
  chain_xrceth_atomiceth:
    seq:
      - id: xrceth
        type: xrceth
      - id: atomiceth
        type: atomiceth
  chain_xrceth_ieth:
    seq:
      - id: xrceth
        type: xrceth
      - id: ieth
        type: ieth
  chain_sacketh:
    seq:
      - id: sacketh
        type: sacketh
  chain_nacketh:
    seq:
      - id: nacketh
        type: nacketh
  chain_crediteth:
    seq:
      - id: crediteth
        type: crediteth
  chain_mrcnpeth:
    seq:
      - id: mrcnpeth
        type: mrcnpeth
  chain_probeeth:
    seq:
      - id: probeeth
        type: probeeth
