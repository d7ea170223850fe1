#!/usr/bin/env python3
"""tests/mail/pgp_mail.py GNUPGHOME FROM TO MESSAGE-ID BODYFILE [FILE [inside|outside]]
- an OpenPGP/MIME (RFC 3156) signed mail, as a mail client with GnuPG makes
it, on standard output.  The signed part is written with CRLF line ends,
exactly as it was signed.

With BODYFILE alone the signed part is the text/plain.  With FILE it is
attached as orders.txt (text/plain, base64): 'inside' (the default) signs a
multipart/mixed of the text and the file, as Thunderbird and Evolution do;
'outside' signs the text alone and puts the file beside the signed part, in
a multipart/mixed around both, so that the file is not signed."""
import base64
import os
import quopri
import subprocess
import sys

home, frm, to, mid, bodyfile = sys.argv[1:6]
attach = sys.argv[6] if len(sys.argv) > 6 else None
where = sys.argv[7] if len(sys.argv) > 7 else 'inside'
assert where in ('inside', 'outside'), where


def crlf(b):
    return b.replace(b'\r\n', b'\n').replace(b'\n', b'\r\n')


body = open(bodyfile, 'rb').read()
text = (b'Content-Type: text/plain; charset="utf-8"\r\n'
        b'Content-Transfer-Encoding: quoted-printable\r\n\r\n' + crlf(quopri.encodestring(body)))
file_part = None
if attach:
    file_part = (b'Content-Type: text/plain; charset="UTF-8"; name="orders.txt"\r\n'
                 b'Content-Disposition: attachment; filename="orders.txt"\r\n'
                 b'Content-Transfer-Encoding: base64\r\n\r\n'
                 + crlf(base64.encodebytes(open(attach, 'rb').read())))
mixed = b'orderly-test-mixed-7'
inner = text
if file_part and where == 'inside':
    inner = (b'Content-Type: multipart/mixed; boundary="' + mixed + b'"\r\n\r\n'
             + b'--' + mixed + b'\r\n' + text + b'\r\n--' + mixed + b'\r\n' + file_part
             + b'\r\n--' + mixed + b'--\r\n')
sig = crlf(subprocess.run(['gpg', '--homedir', home, '--batch', '--yes', '--armor', '--detach-sign',
                           '--digest-algo', 'SHA256'], input=inner, check=True,
                          stdout=subprocess.PIPE).stdout)
b = b'orderly-test-boundary-42'
signed = (b'Content-Type: multipart/signed; micalg=pgp-sha256;\r\n'
          b' protocol="application/pgp-signature"; boundary="' + b + b'"\r\n\r\n'
          + b'--' + b + b'\r\n' + inner + b'\r\n--' + b + b'\r\n'
          + b'Content-Type: application/pgp-signature; name="signature.asc"\r\n\r\n' + sig
          + b'\r\n--' + b + b'--\r\n')
if file_part and where == 'outside':
    signed = (b'Content-Type: multipart/mixed; boundary="' + mixed + b'"\r\n\r\n'
              + b'--' + mixed + b'\r\n' + signed + b'\r\n--' + mixed + b'\r\n' + file_part
              + b'\r\n--' + mixed + b'--\r\n')
out = (('From: %s\r\nTo: %s\r\nSubject: signed orders\r\nMessage-ID: <%s>\r\nMIME-Version: 1.0\r\n'
        % (frm, to, mid)).encode() + signed)
sys.stdout.buffer.write(out)
