# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: macc_pause
  title: PAUSE (802.3x)
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: 'One pause time for the whole link, in quanta of 512 bit times; 0 resumes (XON).'
doc-ref: 'metaroce-v1.md §1 (v1 draft r2)'
seq:
  - id: pause_time
    type: u2
    doc: pause_time
