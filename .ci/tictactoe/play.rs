//! The newcomer test's program (`.ci/newcomer`): plays against the tiny server through the SDK
//! generated from `oai-tictactoe.yaml` outside the checkout. Reads the base URL from
//! `TICTACTOE_URL`; fails on any unexpected answer.

use oai_tictactoe_sdk::gameplay::{GetSquareArgs, PutSquareArgs};
use oai_tictactoe_sdk::types::{Mark, Winner};
use oai_tictactoe_sdk::{Client, Config, SchemeCredential, security_schemes};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::var("TICTACTOE_URL")?;
    let config = Config::new(url)
        .scheme_credential(
            &security_schemes::DEFAULT_API_KEY,
            SchemeCredential::api_key("newcomer-key"),
        )
        .scheme_credential(
            &security_schemes::BEARER_HTTP_AUTHENTICATION,
            SchemeCredential::bearer("newcomer-token"),
        );
    let client = Client::new(config)?;

    for (row, column) in [(1, 1), (2, 2), (3, 3)] {
        client
            .put_square(PutSquareArgs { row, column }, Mark::X)
            .send()
            .await?;
    }
    let status = client.get_board().send().await?.into_body();
    let board = status.board.ok_or("the board is missing")?;
    assert!(
        matches!(board[1][1], Mark::X),
        "square 2,2: {:?}",
        board[1][1]
    );
    assert!(
        matches!(board[0][2], Mark::Value),
        "square 1,3: {:?}",
        board[0][2]
    );
    assert!(
        matches!(status.winner, Some(Winner::X)),
        "winner: {:?}",
        status.winner
    );
    let square = client
        .get_square(GetSquareArgs { row: 3, column: 3 })
        .send()
        .await?
        .into_body();
    assert!(matches!(square, Mark::X), "square 3,3: {square:?}");

    // A documented 400 of a read: its text/html body is one line of text, the error's message.
    let illegal = client
        .get_square(GetSquareArgs { row: 4, column: 1 })
        .send()
        .await;
    let message = illegal.expect_err("row 4 is off the board").to_string();
    assert!(
        message.contains("HTTP 400 Bad Request: Illegal coordinates."),
        "{message}"
    );
    // A write the server refuses is an error too (the square is taken).
    let taken = client
        .put_square(PutSquareArgs { row: 1, column: 1 }, Mark::O)
        .send()
        .await;
    // A final answer (the document's errors are text, so a 4xx is the server's own), not an
    // unknown outcome.
    let taken = taken.expect_err("square 1,1 is taken");
    assert!(
        matches!(&taken, oai_tictactoe_sdk::Error::Api(api) if api.status == 400),
        "square 1,1 is taken: {taken:?}"
    );

    println!(
        "newcomer: X won on a board played through the generated SDK; row 4 answered `{message}`"
    );
    Ok(())
}
