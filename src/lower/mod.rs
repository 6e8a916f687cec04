//! Stage 4: the executor-neutral program of a checked game, what both executors take:
//! the runtime's static [`Tables`] and the folded templates as runtime operations
//! ([`ops`]). The interpreter performs the operations and the code generator prints
//! them, so how the IR maps onto the runtime is decided here once, and the IR itself
//! knows nothing of the runtime.

pub mod ops;
mod reach;
mod shape;
mod tables;

use zrf_runtime::{MoveType, Tables};

use crate::ir;

pub use crate::ir::GoTarget;

pub use ops::{Op, Ops, Test};
pub use tables::{runtime_tables, TablesError};

/// A game ready to run or to print.
#[derive(Clone, Debug)]
pub struct Program {
    pub tables: Tables,
    /// The template bodies, indexed as [`ir::Game::templates`].
    pub templates: Vec<Ops>,
    /// Per piece type, in the order the rules list them.
    pub pieces: Vec<PieceTemplates>,
}

/// The templates a piece type runs.
#[derive(Clone, Debug, Default)]
pub struct PieceTemplates {
    pub moves: Vec<TemplateUse>,
    pub drops: Vec<TemplateUse>,
}

/// A template a piece runs, with the move type its moves have.
#[derive(Clone, Copy, Debug)]
pub struct TemplateUse {
    pub move_type: Option<MoveType>,
    /// Index into [`Program::templates`].
    pub template: usize,
}

/// The program of a checked (and folded) game.
pub fn lower(game: &ir::Game) -> Result<Program, TablesError> {
    let tables = runtime_tables(game)?;
    let uses = |uses: &[ir::TemplateUse]| {
        uses.iter()
            .map(|u| TemplateUse {
                move_type: u.move_type.map(|t| t.narrow()),
                template: u.template.index(),
            })
            .collect()
    };
    Ok(Program {
        tables,
        templates: game.templates.iter().map(ops::lower_block).collect(),
        pieces: game
            .pieces
            .iter()
            .map(|p| PieceTemplates {
                moves: uses(&p.moves),
                drops: uses(&p.drops),
            })
            .collect(),
    })
}
