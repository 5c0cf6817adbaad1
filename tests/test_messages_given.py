"""`toolkit.chat.messages` records given the wrong shapes. `UserMessage(images={...})` took a set and sent
its images in hash order (a str's hash is salted per process: another order in each run, and another
cassette match); it is refused as `tools=` refuses a set, when the record is made. A list, a tuple or a
generator keeps its order."""

import pytest
from pydantic import ValidationError

from toolkit.chat.messages import UserMessage

A = "data:image/png;base64,QQ=="
B = "https://example.com/b.png"


@pytest.mark.parametrize("images", [{A, B}, frozenset({A})])
def test_a_set_of_images_is_refused(images):
    with pytest.raises(ValidationError) as caught:
        UserMessage(content="what is in these?", images=images)
    (problem,) = caught.value.errors()
    assert problem["loc"] == ("images",)
    assert problem["msg"] == (
        f"Value error, UserMessage(images=...) takes a list, and got a {type(images).__name__}, which has no order: "
        "the model would be sent the images in another order in each process; give a list, in the order you want"
    )


@pytest.mark.parametrize("images", [[B, A], (B, A), (url for url in (B, A))])
def test_ordered_images_keep_their_order(images):
    message = UserMessage(content="what is in these?", images=images)
    assert message.images == (B, A)
    assert [part["image_url"]["url"] for part in message.to_openai()["content"][1:]] == [B, A]


def test_a_set_put_in_order_is_taken():
    assert UserMessage(content="x", images=sorted({A, B})).images == (A, B)
