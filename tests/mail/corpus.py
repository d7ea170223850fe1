#!/usr/bin/env python3
"""tests/mail/corpus.py DIR GAME - write the corpus of real-world mail
shapes that tests/mail/test_mail_corpus.sh sends to the judge: one file
NN-name.eml each (RFC 5322 bytes, as a mail client or a mailer daemon would
send them).  Blue's passphrase is 'blue shako and sabre'; each sheet is a
valid battalion sheet unless the name says otherwise."""
import base64
import os
import sys
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.message import Message
import quopri

out, game = sys.argv[1], sys.argv[2]
TO = 'orderly+%s@judge.test' % game
PASS = 'Passphrase: blue shako and sabre\n'
SHEET = 'B1 ↑ 1/2\nB2 Fb @R1\n'
n = 0


def write(name, msg, frm='Blue Player <blue@club.test>', to=TO, extra=None):
    global n
    n += 1
    if frm is not None:
        msg['From'] = frm
    msg['To'] = to
    msg['Subject'] = msg.get('Subject', name)
    msg['Message-ID'] = '<corpus-%02d-%s@club.test>' % (n, name)
    for k, v in (extra or {}).items():
        msg[k] = v
    data = msg.as_bytes() if hasattr(msg, 'as_bytes') else msg
    with open(os.path.join(out, '%02d-%s.eml' % (n, name)), 'wb') as f:
        f.write(data)


def text(body, charset='utf-8', enc='quoted-printable'):
    """A text/plain part encoded exactly as asked (the email package picks its own)."""
    data = body.encode(charset)
    if enc == 'quoted-printable':
        payload = quopri.encodestring(data).decode('ascii')
    elif enc == 'base64':
        payload = base64.encodebytes(data).decode('ascii')
    else:
        payload = data.decode(charset)
    m = Message()
    m['MIME-Version'] = '1.0'
    m['Content-Type'] = 'text/plain; charset="%s"' % charset
    m['Content-Transfer-Encoding'] = enc
    m.set_payload(payload)
    return m


def raw(name, data):
    global n
    n += 1
    with open(os.path.join(out, '%02d-%s.eml' % (n, name)), 'wb') as f:
        f.write(data)


# 01 quoted-printable, 02 base64: the arrow survives either
write('quoted-printable', text('Hi,\n' + PASS + 'ORDERS\n' + SHEET + 'END\n'))
write('base64', text(PASS + 'ORDERS\n' + SHEET + 'END\n', enc='base64'))
# 03 Latin-1 with æøå in a comment, 04 the same in UTF-8
write('latin1', text(PASS + 'ORDERS\nB1 ^N ¾   # Blåbærgrød for æøå\nEND\n', 'iso-8859-1'))
write('utf8-aeoa', text(PASS + 'ORDERS\nB1 ↑ 1/2   # æøå ÆØÅ\nEND\n'))
# 05 multipart/alternative: the text/plain part is read, the HTML ignored
alt = MIMEMultipart('alternative')
alt.attach(text(PASS + 'ORDERS\n' + SHEET + 'END\n'))
alt.attach(MIMEText('<p>' + PASS + '</p><p>ORDERS<br>B1 nonsense<br>END</p>', 'html', 'utf-8'))
write('alternative', alt)
# 06 HTML only: a reply asking for plain text, nothing stored
write('html-only', MIMEText('<html><body><p>' + PASS + 'ORDERS<br>' + SHEET + 'END</p></body></html>', 'html', 'utf-8'))
# 07 the sheet as a .txt attachment
mixed = MIMEMultipart('mixed')
mixed.attach(text('My orders are attached.\n' + PASS))
att = MIMEText(SHEET, 'plain', 'utf-8')
att.add_header('Content-Disposition', 'attachment', filename='orders-turn-1.txt')
mixed.attach(att)
write('attachment', mixed)
# 08 a top-posted reply quoting the last receipt
write('top-posted', text('Changed my mind about the guns.\n' + PASS + 'ORDERS\nB1 ↑ 1/4\nB2 Fb @R1\nEND\n\n'
                         'On Mon, 30 Nov 2026, orderly wrote:\n> Your orders for turn 1 are stored: this is your receipt.\n'
                         '> receipt:    turn 1 side blue version 1\n> B1: ↑ 1/2\n'),
      extra={'In-Reply-To': '<orderly.x@judge.test>'})
# 09 a signature after "-- " that would not parse
write('signature', text(PASS + '\n' + SHEET + '\n-- \nBlue Player\nColonel (ret.), 3rd Regiment\n'))
# 10 1,000-character lines: a long comment line, quoted-printable soft breaks
write('long-lines', text(PASS + 'ORDERS\nB1 ↑ 1/2   # ' + 'x' * 1000 + '\nB2 Fb @R1\nEND\n'))
# 11 a 20 MB mail: the text, and a large binary attachment that is ignored
big = MIMEMultipart('mixed')
big.attach(text(PASS + 'ORDERS\n' + SHEET + 'END\n'))
big.attach(MIMEApplication(os.urandom(20 * 1024 * 1024), 'octet-stream', Name='map.bin'))
write('20mb', big)
# 12 broken MIME: multipart without a boundary, a truncated base64 part
raw('broken-mime', ('From: Blue Player <blue@club.test>\r\nTo: %s\r\nSubject: broken\r\n'
                    'Message-ID: <corpus-12-broken@club.test>\r\nMIME-Version: 1.0\r\n'
                    'Content-Type: multipart/mixed\r\n\r\n--\r\nContent-Transfer-Encoding: base64\r\n\r\n'
                    'QjEg4oaRIDEv\r\n--' % TO).encode())
# 13 no From: at all
write('no-from', text(PASS + 'ORDERS\n' + SHEET + 'END\n'), frm=None)
# 14 a forged From: without the proof (nothing changes; the reply goes to blue)
write('forged-no-proof', text('ORDERS\nB1 ↑ 1/4\nEND\n'))
# 15 a forged From: with a wrong passphrase
write('forged-wrong-pass', text('Passphrase: guessing\nORDERS\nB1 ↑ 1/4\nEND\n'))
# 16 an address nobody registered: stored, never answered
write('stranger', text(PASS + 'ORDERS\n' + SHEET + 'END\n'), frm='Mallory <mallory@club.test>')
# 17 a mail loop: orderly's own reply coming back
write('loop', text('Your orders for turn 1 are stored.\n'),
      frm='orderly <orderly+%s@judge.test>' % game,
      extra={'Auto-Submitted': 'auto-replied', 'X-Orderly-Game': game})
# 18 a vacation auto-reply from blue
write('auto-reply', text('I am away until Monday.\n' + PASS),
      extra={'Auto-Submitted': 'auto-replied'})
# 19 a bounce from the mailer daemon
rep = MIMEMultipart('report', report_type='delivery-status')
rep.attach(text('This message was created automatically by mail delivery software.\n'))
write('bounce', rep, frm='Mail Delivery System <MAILER-DAEMON@club.test>')
# 20 list mail
write('list', text(PASS + 'STATUS\n'), extra={'Precedence': 'list', 'List-Id': '<club.club.test>'})
# 21 the game named by a Game: line, sent to the bare address
write('game-line', text('Game: %s\n' % game + PASS + 'ORDERS\n' + SHEET + 'END\n'), to='orderly@judge.test')
# 22 a sheet with errors: every problem, line and column as written
write('errors', text('Hello umpire,\n' + PASS + 'ORDERS\nB1 ↑ 1/3\nB2 Fz @R1\nEND\n'))
# 23 no orders at all
write('empty', text(PASS + '\nSee you at the club.\n'.replace('See you at the club.', '')))
# 24 format=flowed (RFC 3676): a long order soft-wrapped with trailing spaces
m = text(PASS + 'ORDERS\nB1 ↑ 1/2   # a long line that a mail client \nwraps at the \nspace\nB2 Fb @R1\nEND\n')
m.replace_header('Content-Type', 'text/plain; charset="utf-8"; format=flowed')
write('flowed', m)
# 25 text declared UTF-8 with a byte that is not: refused, the byte named
raw('invalid-utf8', ('From: Blue Player <blue@club.test>\r\nTo: %s\r\nSubject: orders\r\n'
                     'Message-ID: <corpus-25-invalid-utf8@club.test>\r\nMIME-Version: 1.0\r\n'
                     'Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n'
                     % TO).encode() + PASS.encode() + b'ORDERS\r\nB1 \xe2\x86\x91 \xbe\r\nEND\r\n')
# 26 windows-1252: its characters converted, a byte it has none for named
raw('cp1252-undefined', ('From: Blue Player <blue@club.test>\r\nTo: %s\r\nSubject: orders\r\n'
                         'Message-ID: <corpus-26-cp1252-undefined@club.test>\r\nMIME-Version: 1.0\r\n'
                         'Content-Type: text/plain; charset=windows-1252\r\nContent-Transfer-Encoding: 8bit\r\n\r\n'
                         % TO).encode() + PASS.encode() +
    b'\x93Hi\x94\r\nORDERS\r\nB1 ^N \xbe\r\nB2 Fb @R1 \x81\r\nEND\r\n')
# 27 the sheet as a .txt file sent as application/octet-stream, its name
# only in Content-Type's name=
raw('octet-txt', ('From: Blue Player <blue@club.test>\r\nTo: %s\r\nSubject: my orders\r\n'
                  'Message-ID: <corpus-27-octet-txt@club.test>\r\nMIME-Version: 1.0\r\n'
                  'Content-Type: multipart/mixed; boundary="b1"\r\n\r\n--b1\r\n'
                  'Content-Type: text/plain\r\n\r\n%sHere are my orders, attached.\r\n--b1\r\n'
                  'Content-Type: application/octet-stream; name="orders.txt"\r\n'
                  'Content-Transfer-Encoding: base64\r\n\r\n%s\r\n--b1--\r\n'
                  % (TO, PASS.replace('\n', '\r\n'),
                     base64.b64encode(SHEET.encode()).decode('ascii'))).encode())
# 28 the sheet as a .txt attachment beside a 'Status of ...' line: two
# commands, refused whole (the status was sent, the file never read)
mixed = MIMEMultipart('mixed')
mixed.attach(text(PASS + 'Status of my orders? Attached are the new ones.\n'))
att = MIMEText('ORDERS\n' + SHEET + 'END\n', 'plain', 'utf-8')
att.add_header('Content-Disposition', 'attachment', filename='orders-turn-1.txt')
mixed.attach(att)
write('status-and-attachment', mixed)
# 29 the same file under a Subject that starts with HELP: the file's block
# is the command (a Subject's command yields to a block)
mixed = MIMEMultipart('mixed')
mixed.attach(text('My orders are attached.\n' + PASS))
att = MIMEText('ORDERS\n' + SHEET + 'END\n', 'plain', 'utf-8')
att.add_header('Content-Disposition', 'attachment', filename='orders-turn-1.txt')
mixed.attach(att)
mixed['Subject'] = 'Re: Help with my orders'
write('help-subject-attachment', mixed)
