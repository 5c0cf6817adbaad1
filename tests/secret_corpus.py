"""Planted secrets: exceptions a failing tool might raise, each carrying one secret (issue 14).

`CORPUS` is a list of `(kind, exception, secret)`; `ENVIRONMENT` holds secret-looking
environment variables whose values appear bare in some messages. A secret must not reach any
request sent to the model, nor a cassette, a trace or `client.exchanges`.
"""

from __future__ import annotations

import subprocess

ENVIRONMENT = {
    "SHOP_DB_PASSWORD": "Zq8-bare-pw-41",
    "PAYMENT_API_KEY": "pay0Live9Key",
    "SLACK_WEBHOOK_TOKEN": "hooktok_7Yx2",
    "SIGNING_SECRET": "m4ke-it-s1gned",
    "LLM_API_KEY": "llm-key-for-tests-0042",
}


def _cpe(cmd: list[str]) -> subprocess.CalledProcessError:
    return subprocess.CalledProcessError(1, cmd)


CORPUS: list[tuple[str, BaseException, str]] = [
    # file paths (home and absolute, inside and outside File "..." lines)
    ("path", FileNotFoundError(2, "No such file or directory", "/home/alice/.ssh/id_rsa"), "/home/alice"),
    ("path", PermissionError(13, "Permission denied", "/etc/shop/credentials.yaml"), "/etc/shop"),
    ("path", OSError("cannot open /var/lib/shop/keys/prod.pem for reading"), "/var/lib/shop"),
    ("path", RuntimeError('  File "/home/bob/work/shop/tools.py", line 12, in lookup\n    boom()'), "/home/bob"),
    ("path", RuntimeError('error in File "/Users/carol/proj/db.py", line 3'), "/Users/carol"),
    ("path", RuntimeError("config ~/shop/.env is unreadable"), "~/shop"),
    ("path", RuntimeError(r"cannot load C:\Users\dave\AppData\token.json"), r"C:\Users\dave"),
    ("path", RuntimeError("fetch file:///home/erin/secrets/keys.txt failed"), "/home/erin"),
    ("path", RuntimeError("mount /mnt/backup/customers.csv: busy"), "/mnt/backup"),
    ("path", ValueError("bad key file '/opt/app/conf/my key.pem'"), "/opt/app"),
    # labelled secrets
    ("label", RuntimeError("login failed: DB_PASS=Tr0ub4dor&3"), "Tr0ub4dor&3"),
    ("label", RuntimeError("SESSION_KEY=7c1e9f0a2b3d4c5e rejected"), "7c1e9f0a2b3d4c5e"),
    ("label", RuntimeError("signing_key: kj3h4kj5h6 is too short"), "kj3h4kj5h6"),
    ("label", RuntimeError("sent cookie session=sess-9a8b7c6d; path=/"), "sess-9a8b7c6d"),
    ("label", RuntimeError("Cookie: sid=Qw3rTy99; csrftoken=Zx8cVb77"), "Qw3rTy99"),
    ("label", RuntimeError("Cookie: sid=Qw3rTy99; csrftoken=Zx8cVb77"), "Zx8cVb77"),
    ("label", RuntimeError("GET https://maps.example.com/geo?key=MapKey123xyz&q=shanghai -> 403"), "MapKey123xyz"),
    ("label", RuntimeError("GET /v1?q=x&token=QueryTok55&page=2 -> 401"), "QueryTok55"),
    ("label", RuntimeError("password=hunter2 is wrong"), "hunter2"),
    ("label", RuntimeError("DB_PASSWORD: 'hunter 3'"), "hunter 3"),
    ("label", RuntimeError('{"api_key": "abc123def", "user": "ann"}'), "abc123def"),
    ("label", RuntimeError("client_secret=cs_xyz987; token=tk_abc654"), "cs_xyz987"),
    ("label", RuntimeError("client_secret=cs_xyz987; token=tk_abc654"), "tk_abc654"),
    ("label", RuntimeError("X-Api-Key: 1234509876"), "1234509876"),
    ("label", RuntimeError("Server=db;User Id=app;Password=Pa55word;"), "Pa55word"),
    ("label", RuntimeError('apiKey="camelKey42" refused'), "camelKey42"),
    ("label", RuntimeError("private_key = 'MIIBVgIBADAN'"), "MIIBVgIBADAN"),
    ("label", RuntimeError("smtp_pass:MailPw_2026"), "MailPw_2026"),
    # labelled in Chinese, Japanese and Korean: full-width separators, no spaces, "is" as a verb
    ("label", RuntimeError("连接数据库失败：用户名：shop，密码：Zh-pw-8848"), "Zh-pw-8848"),
    ("label", RuntimeError("登录失败，新密码=Tr0ub4dor&9。请重试"), "Tr0ub4dor&9"),
    ("label", RuntimeError("接口调用失败（密钥＝ak_7f3e9c21）"), "ak_7f3e9c21"),
    ("label", RuntimeError("管理员口令是 Adm1n!2026，请勿外传"), "Adm1n!2026"),
    ("label", RuntimeError("令牌为tk-9c8b7a6d请求被拒绝"), "tk-9c8b7a6d"),
    ("label", RuntimeError('{"账号": "ann", "登录密码": "Json-pw-77"}'), "Json-pw-77"),
    ("label", RuntimeError("驗證碼：482913 已過期"), "482913"),
    ("label", RuntimeError("API_KEY：cn-key-5521 无效"), "cn-key-5521"),
    ("label", RuntimeError("パスワードは Jp-pw-4410 です"), "Jp-pw-4410"),
    ("label", RuntimeError("비밀번호: Kr-pw-3301"), "Kr-pw-3301"),
    ("label", RuntimeError("短信发送失败：您的验证码为：Sms-6620，5分钟内有效"), "Sms-6620"),
    # passwords on command lines and in SQL
    ("command", _cpe(["mysql", "-uroot", "-pS3cret!", "shop"]), "S3cret!"),
    ("command", RuntimeError("mysqldump -u backup -pDumpPw77 shop > /tmp/x.sql failed"), "DumpPw77"),
    ("command", RuntimeError("sshpass -p ssh-pw-31 ssh deploy@host exited 5"), "ssh-pw-31"),
    ("command", _cpe(["pg_dump", "--password", "PgPw_998", "shop"]), "PgPw_998"),
    ("command", RuntimeError("psql: --password=Pw-in-opt-3 not accepted"), "Pw-in-opt-3"),
    ("sql", RuntimeError("CREATE USER 'app'@'%' IDENTIFIED BY 'Sql#pw1';"), "Sql#pw1"),
    ("sql", RuntimeError('ALTER USER app IDENTIFIED BY "Sql#pw2" failed'), "Sql#pw2"),
    ("sql", RuntimeError("ALTER ROLE shop WITH LOGIN PASSWORD 'Sql#pw3'"), "Sql#pw3"),
    ("sql", RuntimeError("SET PASSWORD FOR app = PASSWORD('Sql#pw4')"), "Sql#pw4"),
    ("sql", RuntimeError("ALTER USER app IDENTIFIED WITH mysql_native_password BY 'Sql#pw5'"), "Sql#pw5"),
    # values of secret-looking environment variables, bare
    ("environment", RuntimeError("login as shop with Zq8-bare-pw-41 failed"), "Zq8-bare-pw-41"),
    ("environment", RuntimeError("payment gateway refused pay0Live9Key"), "pay0Live9Key"),
    ("environment", RuntimeError("webhook hooktok_7Yx2 revoked"), "hooktok_7Yx2"),
    ("environment", RuntimeError("HMAC with m4ke-it-s1gned mismatched"), "m4ke-it-s1gned"),
    ("environment", RuntimeError("model gateway said: invalid key llm-key-for-tests-0042"), "llm-key-for-tests-0042"),
    # known key formats
    ("format", RuntimeError("key sk-proj-AbCdEf0123456789xyz rejected"), "AbCdEf0123456789xyz"),
    (
        "format",
        RuntimeError("sendgrid SG.aBcDeFgHiJkLmNoPqRsTuV.0123456789abcdefghijKLMNOPQRstuvwxyzABCDEFG"),
        "SG.aBcD",
    ),
    (
        "format",
        RuntimeError("sendgrid SG.aBcDeFgHiJkLmNoPqRsTuV.0123456789abcdefghijKLMNOPQRstuvwxyzABCDEFG"),
        "0123456789abcdefghij",
    ),
    ("format", RuntimeError("used ghp_0123456789abcdefghijABCDEFGHIJ"), "ghp_0123456789"),
    ("format", RuntimeError("used github_pat_11ABCDEFG0123456789_abcdefghijklmnop"), "github_pat_11ABC"),
    ("format", RuntimeError("slack xoxb-1234-5678-abcdefghij failed"), "xoxb-1234"),
    ("format", RuntimeError("slack xoxp-9876-5432-zyxwvutsrq failed"), "xoxp-9876"),
    ("format", RuntimeError("AWS key AKIAABCDEFGHIJKLMNOP denied"), "AKIAABCDEFGHIJKLMNOP"),
    ("format", RuntimeError("google AIzaSyA1234567890abcdefghijklmnopqrstuv"), "AIzaSyA1234567890"),
    ("format", RuntimeError("stripe sk_live_51HxYzAbCdEfGhIjKl rejected"), "sk_live_51HxYz"),
    ("format", RuntimeError("jwt eyJhbGciOi.eyJzdWIiOjF9.c2lnbmF0dXJl expired"), "eyJzdWIiOjF9"),
    ("format", RuntimeError("npm publish: token npm_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5 revoked"), "npm_aB3dE5"),
    (
        "format",
        RuntimeError("twine: pypi-AgEIcHlwaS5vcmcCJDAwMDAwMDAwLTExMTEtMjIyMi0zMzMzLTQ0NDQ0NDQ0NDQ0NAACKlsz"),
        "AgEIcHlw",
    ),
    ("format", RuntimeError("slack xapp-1-A0123456789-1234567890123-abcdef0123456789 failed"), "A0123456789"),
    ("format", RuntimeError("gitlab gldt-AbCdEfGhIj0123456789 expired"), "gldt-AbCd"),
    ("format", RuntimeError("密钥ｓｋ－ｐｒｏｊ－ＦｕｌｌＷｉｄｔｈ０１２３４５６７已失效"), "ＦｕｌｌＷｉｄｔｈ"),
    ("format", RuntimeError("key sk\u2011proj\u2011NbHyphen0123456789ab rejected"), "NbHyphen"),
    (
        "format",
        RuntimeError("-----BEGIN RSA PRIVATE KEY-----\nMIIEowSecretBody\n-----END RSA PRIVATE KEY-----"),
        "MIIEow",
    ),
    # credentials in URLs
    ("url", RuntimeError("cannot reach postgres://shop:urlpw1@db.internal:5432/orders"), "urlpw1"),
    ("url", RuntimeError("mongodb+srv://admin:p%40ss2@cluster0.example.net/test failed"), "p%40ss2"),
    ("url", RuntimeError("redis://:urlpw3@cache:6379/0 refused"), "urlpw3"),
    ("url", ConnectionError("https://deploy:urlpw4@git.example.com/shop.git: 403"), "urlpw4"),
    # bearer and basic tokens
    ("header", RuntimeError("Authorization: Bearer abcdef123456bear"), "abcdef123456bear"),
    ("header", RuntimeError("got 401 for Basic dXNlcjpwYXNzYmFzaWM="), "dXNlcjpwYXNzYmFzaWM"),
    ("header", RuntimeError("header authorization=Token tok-xyz-12345"), "tok-xyz-12345"),
    # inside a traceback printed into the message
    (
        "traceback",
        RuntimeError(
            "lookup failed\nTraceback (most recent call last):\n"
            '  File "/srv/shop/tools.py", line 12, in lookup\n'
            '    db.connect("postgres://u:tbpw9@db")\n'
            "KeyError: 'SN1'"
        ),
        "tbpw9",
    ),
    ("traceback", RuntimeError("x" * 600 + " password=late_secret_1"), "late_secret_1"),
]
