//! Los ejemplos del capítulo que no deben compilar, con su error fijado.

#[path = "../../../curso/src/casos_ui.rs"]
mod casos_ui;

#[test]
fn lo_que_el_lenguaje_no_deja_hacer() {
    casos_ui::comprobar("tests/ui");
}
