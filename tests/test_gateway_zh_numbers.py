"""toolkit.gateway.zh_numbers: numbers written in Chinese numerals."""

import pytest
from test_gateway_generic_asks import CONVERT, turn

from toolkit.gateway.zh_numbers import chinese_numbers


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("转三百五十块", [350]),
        ("两千美元", [2000]),
        ("一万二日元", [12000]),
        ("三千五", [3500]),
        ("两百五", [250]),
        ("一千零五", [1005]),
        ("三十万五千", [305000]),
        ("调到二十二度", [22]),
        ("十五个人", [15]),
        ("选第三个", [3]),
        ("三个人，两位小孩", [3, 2]),
        ("十个", [10]),
        ("万一出错", []),
        ("千万别忘了", []),
        ("三星手机", []),
        ("三明治", []),
        ("等一下", []),
        ("星期三", []),
        ("三月五号", []),
        ("二三个", []),
        ("convert 5 euros", []),
    ],
)
def test_chinese_numbers(text, numbers):
    assert chinese_numbers(text) == numbers


@pytest.mark.parametrize(
    ("text", "amount", "codes"),
    [
        ("两千美元换成欧元", 2000, ("USD", "EUR")),
        ("一万二日元是多少人民币", 12000, ("JPY", "CNY")),
        ("how much is 三百五十 dollars in yen", 350, ("USD", "JPY")),
    ],
)
def test_a_number_in_chinese_numerals_fills_a_number_field(text, amount, codes):
    """ "两千美元换成欧元" converted an amount of 1: Chinese numerals were no number."""
    assert turn(text, [CONVERT])[0] == [
        ("convert_currency", {"amount": amount, "from_currency": codes[0], "to_currency": codes[1]})
    ]
