//! Dibuja `resultados/tokio-robo.json` (lo que grabó `--bin grabador -- --carga robo`)
//! en `book/graficas/tokio-robo.svg`: qué tarea sondeó cada trabajador de
//! Tokio, y cuándo. Opciones: `--registro RUTA`, `--svg RUTA`.

fn main() {
    leccion_08::grabacion::grafica::programa(
        leccion_08::grabacion::Carga::Robo,
        "Tokio de verdad: qué sondea cada trabajador, y cuándo",
    );
}
