#!/usr/bin/env python3
"""tests/mail/mime.py FILE WHAT - read one mail as a player's mail client
would: 'body' (the text/plain, decoded), 'subject', 'header:NAME',
'attach:NAME' (the attachment's bytes, to standard output), 'attachments'
(their names)."""
import email
import email.policy
import sys

msg = email.message_from_binary_file(open(sys.argv[1], 'rb'), policy=email.policy.default)
what = sys.argv[2]
if what == 'body':
    part = msg.get_body(preferencelist=('plain',))
    sys.stdout.write(part.get_content() if part else '')
elif what == 'subject':
    print(msg['subject'] or '')
elif what.startswith('header:'):
    print(msg[what[7:]] or '')
elif what == 'attachments':
    for p in msg.iter_attachments():
        print(p.get_filename())
elif what.startswith('attach:'):
    for p in msg.iter_attachments():
        if p.get_filename() == what[7:]:
            sys.stdout.buffer.write(p.get_payload(decode=True))
            break
    else:
        sys.exit('no attachment ' + what[7:])
